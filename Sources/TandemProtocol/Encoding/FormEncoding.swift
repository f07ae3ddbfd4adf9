#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                escaped.append(byte)
            } else {
                escaped.append(UInt8(ascii: "%"))
                escaped.append(hexDigits[Int(byte >> 4)])
                escaped.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// RFC 3986 §2.3: `A–Z a–z 0–9 - . _ ~`.
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Upper-case, as RFC 3986 §2.1 recommends.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
}
