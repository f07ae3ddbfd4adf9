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
}
