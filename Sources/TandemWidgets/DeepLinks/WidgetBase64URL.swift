// Replaced by TandemProtocol's Base64URL when it lands.
import Foundation

/// Strict unpadded base64url (RFC 4648 §5), for the `config=` parameter of widget links.
enum WidgetBase64URL {
    /// `data` in unpadded base64url.
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text`, or `nil` unless it is canonical unpadded base64url: only the
    /// URL-safe alphabet, no padding, no leftover bits set, so each value has one spelling.
    static func decode(_ text: String) -> Data? {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        guard text.utf8.allSatisfy(alphabet.contains), text.utf8.count % 4 != 1 else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        guard let data = Data(base64Encoded: standard), encode(data) == text else { return nil }
        return data
    }
}
