/// An IPv4 or IPv6 address, parsed from its textual form without regular expressions and
/// written back in its canonical form (dotted quad; RFC 5952 for IPv6).
///
/// ```swift
/// let metadata = IPAddress("169.254.169.254")     // .v4(0xA9FE_A9FE)
/// let mapped = IPAddress("::ffff:169.254.169.254") // .v6(...), embeddedIPv4 == metadata
/// ```
public enum IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// An IPv4 address, most significant byte first.
    case v4(UInt32)
    /// An IPv6 address, most significant byte first.
    case v6(UInt128)

    /// Parses a dotted-quad IPv4 address or an IPv6 address (with or without an IPv4 tail),
    /// without brackets or zone. Returns `nil` for anything else, including IPv4 parts with
    /// leading zeros, which some resolvers read as octal.
    public init?(_ text: some StringProtocol) {
        if let v4 = Self.parseIPv4(Substring(text)) {
            self = .v4(v4)
        } else if let v6 = Self.parseIPv6(Substring(text)) {
            self = .v6(v6)
        } else {
            return nil
        }
    }

    /// The IPv4 address an IPv6 address carries: IPv4-mapped (`::ffff:a.b.c.d`),
    /// IPv4-compatible (`::a.b.c.d`, other than `::` and `::1`) and NAT64 (`64:ff9b::a.b.c.d`).
    /// `nil` for IPv4 addresses and other IPv6 addresses.
    public var embeddedIPv4: UInt32? {
        guard case .v6(let value) = self else { return nil }
        let prefix = value >> 32
        let low = UInt32(truncatingIfNeeded: value)
        switch prefix {
        case 0xFFFF:
            return low
        case 0 where value > 1:
            return low
        case UInt128(0x0064_FF9B) << 64:
            return low
        default:
            return nil
        }
    }

    /// The address family's width in bits: 32 or 128.
    public var bitWidth: Int {
        switch self {
        case .v4: 32
        case .v6: 128
        }
    }

    /// The canonical text: `10.1.2.3`, `fe80::1`, `::ffff:169.254.169.254`.
    public var description: String {
        switch self {
        case .v4(let value):
            return Self.formatIPv4(value)
        case .v6(let value):
            return Self.formatIPv6(value)
        }
    }

    private static func parseIPv4(_ text: Substring) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard !part.isEmpty, part.count <= 3, part.allSatisfy(\.isASCIIDigit) else { return nil }
            guard part.count == 1 || part.first != "0" else { return nil }
            guard let octet = UInt32(part), octet <= 255 else { return nil }
            value = value << 8 | octet
        }
        return value
    }

    private static func parseIPv6(_ text: Substring) -> UInt128? {
        guard text.contains(":") else { return nil }
        let halves = text.split(separator: "::", maxSplits: 2, omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        guard let head = parseGroups(halves[0], allowsIPv4Tail: halves.count == 1) else { return nil }
        if halves.count == 1 {
            guard head.count == 8 else { return nil }
            return combine(head)
        }
        guard let tail = parseGroups(halves[1], allowsIPv4Tail: true) else { return nil }
        let missing = 8 - head.count - tail.count
        guard missing >= 1 else { return nil }
        return combine(head + Array(repeating: 0, count: missing) + tail)
    }

    private static func parseGroups(_ text: Substring, allowsIPv4Tail: Bool) -> [UInt16]? {
        if text.isEmpty { return [] }
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        var groups: [UInt16] = []
        for (index, piece) in pieces.enumerated() {
            if allowsIPv4Tail, index == pieces.count - 1, piece.contains(".") {
                guard let v4 = parseIPv4(piece) else { return nil }
                groups.append(UInt16(v4 >> 16))
                groups.append(UInt16(v4 & 0xFFFF))
                continue
            }
            guard !piece.isEmpty, piece.count <= 4, let group = UInt16(piece, radix: 16),
                piece.allSatisfy(\.isHexDigit)
            else { return nil }
            groups.append(group)
        }
        return groups.count <= 8 ? groups : nil
    }

    private static func combine(_ groups: [UInt16]) -> UInt128 {
        groups.reduce(UInt128(0)) { $0 << 16 | UInt128($1) }
    }

    private static func formatIPv4(_ value: UInt32) -> String {
        [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
    }

    private static func formatIPv6(_ value: UInt128) -> String {
        if value >> 32 == 0xFFFF {
            return "::ffff:" + formatIPv4(UInt32(truncatingIfNeeded: value))
        }
        let groups = (0..<8).map { UInt16(truncatingIfNeeded: value >> UInt128(112 - 16 * $0)) }
        var best = (start: -1, length: 0)
        var index = 0
        while index < 8 {
            guard groups[index] == 0 else {
                index += 1
                continue
            }
            let start = index
            while index < 8, groups[index] == 0 { index += 1 }
            if index - start > best.length { best = (start, index - start) }
        }
        let hex = groups.map { String($0, radix: 16) }
        guard best.length >= 2 else { return hex.joined(separator: ":") }
        let head = hex[..<best.start].joined(separator: ":")
        let tail = hex[(best.start + best.length)...].joined(separator: ":")
        return head + "::" + tail
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
