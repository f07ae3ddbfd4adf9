/// Writes compact JSON text: strings escaped as RFC 8259 requires (quote, backslash, control
/// characters), and U+2028 and U+2029 too so the text is safe inside JavaScript.
struct CompactJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func beginObject() {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    mutating func member(_ key: String, _ value: String) {
        separate()
        appendString(key)
        bytes.append(UInt8(ascii: ":"))
        appendString(value)
    }

    private mutating func separate() {
        guard let last = needsComma.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        let utf8 = Array(string.utf8)
        var index = 0
        while index < utf8.count {
            let byte = utf8[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0..<0x20:
                bytes += Array("\\u00".utf8) + [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)]]
            case 0xE2 where index + 1 < utf8.count && utf8[index] == 0x80 && (utf8[index + 1] == 0xA8 || utf8[index + 1] == 0xA9):
                bytes += Array("\\u202".utf8) + [utf8[index + 1] == 0xA8 ? UInt8(ascii: "8") : UInt8(ascii: "9")]
                index += 2
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
