import Foundation

/// `application/x-www-form-urlencoded` bodies (RFC 6749 appendix B): every byte outside the
/// unreserved set is percent-encoded, so `+`, `&` and `=` inside values survive.
enum FormEncoding {
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The body for `parameters`, in order; `nil` values are left out.
    static func encode(_ parameters: [(String, String?)]) -> Data {
        Data(query(parameters).utf8)
    }

    /// `name=value&…` for `parameters`, in order, each part percent-encoded; `nil` values are left
    /// out. The same text serves as a form body and as a URL query.
    static func query(_ parameters: [(String, String?)]) -> String {
        parameters.compactMap { name, value in value.map { "\(escape(name))=\(escape($0))" } }.joined(separator: "&")
    }

    /// `text` percent-encoded for a form body or a query component.
    static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// A POST request carrying `parameters` as a form body.
    static func request(to url: URL, _ parameters: [(String, String?)]) -> HTTPRequest {
        HTTPRequest(
            method: .post, url: url,
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"],
            body: encode(parameters))
    }
}
