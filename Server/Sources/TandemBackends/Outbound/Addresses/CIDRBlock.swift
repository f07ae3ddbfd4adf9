/// A block of addresses written as `address/prefix` (`10.20.0.0/16`, `fd12:3456::/48`), or a
/// single address without a prefix. Coded as that text.
///
/// ```swift
/// let gateway = CIDRBlock("10.20.0.0/16")
/// gateway?.contains(IPAddress("10.20.3.4")!) // true
/// ```
public struct CIDRBlock: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The block's first address (host bits cleared).
    public let network: IPAddress
    /// How many leading bits every address in the block shares.
    public let prefixLength: Int

    /// Parses `address/prefix` or a bare address; `nil` for a malformed block, a prefix past the
    /// family's width, or host bits set below the prefix (`10.0.0.1/8`), which usually means a typo.
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let address = IPAddress(parts[0]) else { return nil }
        let width = address.bitWidth
        var length = width
        if parts.count == 2 {
            let digits = parts[1]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                let parsed = Int(digits), parsed <= width
            else { return nil }
            length = parsed
        }
        guard Self.masked(address, to: length) == address else { return nil }
        network = address
        prefixLength = length
    }

    /// Whether `address` is in the block. An IPv4 block never contains an IPv6 address, mapped
    /// or not; callers that care unwrap ``IPAddress/embeddedIPv4`` first.
    public func contains(_ address: IPAddress) -> Bool {
        address.bitWidth == network.bitWidth && Self.masked(address, to: prefixLength) == network
    }

    /// `address/prefix`, with the address in canonical form.
    public var description: String {
        "\(network)/\(prefixLength)"
    }

    /// Decodes the block from its text.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let block = CIDRBlock(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "Not an address block such as 10.0.0.0/8 or fd00::/8.")
        }
        self = block
    }

    /// Encodes the block as its text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    private static func masked(_ address: IPAddress, to length: Int) -> IPAddress {
        switch address {
        case .v4(let value):
            let mask: UInt32 = length == 0 ? 0 : ~UInt32(0) << UInt32(32 - length)
            return .v4(value & mask)
        case .v6(let value):
            let mask: UInt128 = length == 0 ? 0 : ~UInt128(0) << UInt128(128 - length)
            return .v6(value & mask)
        }
    }
}
