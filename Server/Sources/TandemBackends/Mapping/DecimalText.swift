/// Exact decimal text: reads a decimal literal (a JSON number, or the string forms OData sends,
/// `"4805.10"`, `"-0.50"`, `"1E+2"`) and writes it without an exponent, keeping every digit and
/// the scale, never through a binary floating-point value.
enum DecimalText {
    /// The largest exponent shift written out; beyond it the text would be absurdly long.
    static let maximumShift = 400

    /// `literal` without an exponent, `.`-separated, its `-` sign kept and a `+` dropped, leading
    /// zeros of the integer part removed: `"4805.10"` stays `"4805.10"`, `"1E+2"` is `"100"`,
    /// `"1.5e-3"` is `"0.0015"`. Nil when `literal` is not a decimal number.
    static func normalized(_ literal: String) -> String? {
        var bytes = literal.utf8[...]
        var negative = false
        if let first = bytes.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            negative = first == UInt8(ascii: "-")
            bytes = bytes.dropFirst()
        }
        let integerDigits = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(integerDigits.count)
        var fractionDigits = bytes.prefix(0)
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit)
            bytes = bytes.dropFirst(fractionDigits.count)
        }
        guard !integerDigits.isEmpty || !fractionDigits.isEmpty else { return nil }
        var exponent = 0
        if let marker = bytes.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            var exponentNegative = false
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                exponentNegative = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            let exponentDigits = bytes.prefix(while: isDigit)
            guard !exponentDigits.isEmpty else { return nil }
            bytes = bytes.dropFirst(exponentDigits.count)
            let significant = exponentDigits.drop { $0 == UInt8(ascii: "0") }
            guard significant.count <= 4 else { return nil }
            exponent = significant.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            if exponentNegative { exponent = -exponent }
        }
        guard bytes.isEmpty else { return nil }

        let digits = Array(integerDigits) + Array(fractionDigits)
        let point = integerDigits.count + exponent
        guard point <= maximumShift + digits.count, -point <= maximumShift else { return nil }
        var integerPart: [UInt8]
        var fractionPart: [UInt8]
        if point >= digits.count {
            integerPart = digits + Array(repeating: UInt8(ascii: "0"), count: point - digits.count)
            fractionPart = []
        } else if point <= 0 {
            integerPart = []
            fractionPart = Array(repeating: UInt8(ascii: "0"), count: -point) + digits
        } else {
            integerPart = Array(digits[..<point])
            fractionPart = Array(digits[point...])
        }
        let leadingZeros = integerPart.prefix { $0 == UInt8(ascii: "0") }.count
        integerPart.removeFirst(leadingZeros)
        if integerPart.isEmpty { integerPart = [UInt8(ascii: "0")] }

        var text: [UInt8] = negative ? [UInt8(ascii: "-")] : []
        text += integerPart
        if !fractionPart.isEmpty {
            text.append(UInt8(ascii: "."))
            text += fractionPart
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The integer `literal` (optional `-`, digits) within `range`, as canonical decimal text.
    static func integer(_ literal: String, in range: ClosedRange<Int64>) -> String? {
        guard let value = Int64(literal), range.contains(value),
            literal.utf8.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: "-") })
        else { return nil }
        return String(value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
