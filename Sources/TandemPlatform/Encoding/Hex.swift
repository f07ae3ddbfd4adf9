/// Lower-case hexadecimal, two digits a byte: digests in file names, request keys and ETags.
///
/// ```swift
/// let name = Hex.encode(SHA256.hash(data: key))   // 64 characters
/// ```
///
/// Here, in the module every other one links, rather than in TandemProtocol, so that the
/// platform layer's own names (the paired key's id) use it too. Written out because
/// `String(format: "%02x")` goes through CoreFoundation's formatter, which costs a widget
/// extension over half a megabyte of resident memory on Linux, and is slow.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    /// `bytes` as lower-case hexadecimal.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var text = [UInt8]()
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes `text` spells in hexadecimal (either case); `nil` for an odd length or a
    /// character that is no hexadecimal digit.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = value(of: characters[index]), let low = value(of: characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
