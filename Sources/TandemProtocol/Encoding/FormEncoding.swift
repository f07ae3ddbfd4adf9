import Foundation

/// Percent-encoding, written once for every URL and form the client and the server build:
/// `application/x-www-form-urlencoded` bodies (RFC 6749 appendix B), query strings and path
/// segments. Every byte outside RFC 3986's unreserved set (`A–Z a–z 0–9 - . _ ~`, ASCII only) is
/// percent-encoded, so `+`, `&`, `=`, `/` and non-ASCII letters inside a value survive.
///
/// ```swift
/// let body = FormEncoding.encode([("grant_type", "refresh_token"), ("refresh_token", token)])
/// let path = "/v1/apps/\(FormEncoding.escape(clientID))/configuration"
/// ```
public enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The form body for `parameters`, in order; `nil` values are left out.
    public static func encode(_ parameters: [(String, String?)]) -> Data {
        Data(query(parameters).utf8)
    }

    /// `name=value&…` for `parameters`, in order, each part percent-encoded; `nil` values are left
    /// out. The same text serves as a form body and as a URL query.
    public static func query(_ parameters: [(String, String?)]) -> String {
        parameters.compactMap { name, value in value.map { "\(escape(name))=\(escape($0))" } }.joined(separator: "&")
    }

    /// `text` percent-encoded for a form body, a query component or one path segment.
    public static func escape(_ text: String) -> String {
        // Only unpaired surrogates fail to encode, and Swift strings hold none.
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }
}
