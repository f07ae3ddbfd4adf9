/// RFC 8288 `Link` header values: `<https://…?page=2>; rel="next", <https://…?page=5>; rel="last"`.
enum LinkHeader {
    /// The target of the first link whose `rel` includes `next` (case-insensitive) in `values`,
    /// the values of every `Link` header in order. Targets are returned as written (a relative
    /// reference stays relative). A malformed link-value is skipped.
    static func nextTarget(in values: [String]) -> String? {
        for value in values {
            var scanner = LinkScanner(Array(value.utf8))
            while let link = scanner.nextLink() {
                if link.relations.contains("next") { return link.target }
            }
        }
        return nil
    }
}

private struct LinkScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next link-value, skipping malformed ones; nil at the end.
    mutating func nextLink() -> (target: String, relations: [String])? {
        while index < bytes.count {
            skip { $0 == UInt8(ascii: ",") || Self.isWhitespace($0) }
            guard index < bytes.count else { return nil }
            guard bytes[index] == UInt8(ascii: "<"), let close = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else {
                skipLinkValue()
                continue
            }
            let target = String(decoding: bytes[(index + 1)..<close], as: UTF8.self)
            index = close + 1
            var relations: [String] = []
            var malformed = false
            while true {
                skip(Self.isWhitespace)
                guard index < bytes.count, bytes[index] == UInt8(ascii: ";") else { break }
                index += 1
                skip(Self.isWhitespace)
                let name = token().lowercased()
                skip(Self.isWhitespace)
                var parameterValue = ""
                if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                    index += 1
                    skip(Self.isWhitespace)
                    guard let read = quotedStringOrToken() else {
                        malformed = true
                        break
                    }
                    parameterValue = read
                }
                if name == "rel", relations.isEmpty {
                    relations = parameterValue.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                }
            }
            skip(Self.isWhitespace)
            if malformed || (index < bytes.count && bytes[index] != UInt8(ascii: ",")) {
                skipLinkValue()
                continue
            }
            return (target, relations)
        }
        return nil
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private mutating func skip(_ predicate: (UInt8) -> Bool) {
        while index < bytes.count, predicate(bytes[index]) { index += 1 }
    }

    private mutating func token() -> String {
        let start = index
        skip { !($0 == UInt8(ascii: "=") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t")) }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func quotedStringOrToken() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return token() }
        index += 1
        var value: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: value, as: UTF8.self) }
            if byte == UInt8(ascii: "\\") {
                guard index < bytes.count else { return nil }
                value.append(bytes[index])
                index += 1
            } else {
                value.append(byte)
            }
        }
        return nil
    }

    /// Moves past the current link-value: to the next comma outside quotes and angle brackets.
    private mutating func skipLinkValue() {
        var quoted = false
        var bracketed = false
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { quoted = false }
            } else if bracketed {
                if byte == UInt8(ascii: ">") { bracketed = false }
            } else if byte == UInt8(ascii: "\"") {
                quoted = true
            } else if byte == UInt8(ascii: "<") {
                bracketed = true
            } else if byte == UInt8(ascii: ",") {
                return
            }
        }
    }
}
