#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Base64url (RFC 4648 §5), the encoding of PKCE values, JWT parts, secrets and configuration
/// links. Encoding writes no padding; decoding is strict.
///
/// ```swift
/// let text = Base64URL.encode([0xfb, 0xff])     // "-_8"
/// let bytes = Base64URL.decode(text)            // Data([0xfb, 0xff])
/// ```
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` in base64url without padding, encoded directly rather than through Foundation's
    /// base64 and three string replacements (the server encodes several values per token request).
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let bytes = Array(bytes)
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            output.append(alphabet[Int(chunk >> 6 & 63)])
            output.append(alphabet[Int(chunk & 63)])
            index += 3
        }
        let remaining = bytes.count - index
        if remaining > 0 {
            let second = remaining == 2 ? UInt32(bytes[index + 1]) : 0
            let chunk = UInt32(bytes[index]) << 16 | second << 8
            output.append(alphabet[Int(chunk >> 18 & 63)])
            output.append(alphabet[Int(chunk >> 12 & 63)])
            if remaining == 2 { output.append(alphabet[Int(chunk >> 6 & 63)]) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of `text`, or `nil` when it is not base64url.
    ///
    /// Only the URL alphabet is accepted: `+`, `/`, whitespace and any other character refuse
    /// the whole text. Padding is optional, but when present it is the last one or two
    /// characters of a text whose length is a multiple of four. Unused trailing bits must be
    /// zero, so each byte string has exactly one unpadded spelling.
    public static func decode(_ text: String) -> Data? {
        var characters = Array(text.utf8)
        if characters.last == UInt8(ascii: "=") {
            guard characters.count % 4 == 0 else { return nil }
            characters.removeLast()
            if characters.last == UInt8(ascii: "=") { characters.removeLast() }
        }
        guard characters.count % 4 != 1 else { return nil }
        var output = Data(capacity: characters.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in characters {
            guard let value = sextet(character) else { return nil }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
                accumulator &= (1 << UInt32(bits)) - 1
            }
        }
        guard accumulator == 0 else { return nil }
        return output
    }

    /// The 6-bit value of one base64url character.
    private static func sextet(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): 62
        case UInt8(ascii: "_"): 63
        default: nil
        }
    }
}
