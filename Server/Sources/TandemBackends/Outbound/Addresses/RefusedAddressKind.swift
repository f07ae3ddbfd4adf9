/// Why an address is not a backend the server will call.
public enum RefusedAddressKind: String, Sendable, Hashable, Codable, CustomStringConvertible {
    /// `0.0.0.0/8` or `::`.
    case unspecified
    /// `127.0.0.0/8` or `::1`, refused unless ``OutboundPolicy/allowsLoopback``.
    case loopback
    /// `169.254.0.0/16` or `fe80::/10`.
    case linkLocal
    /// A cloud's instance metadata service: `169.254.169.254`, `fd00:ec2::254`, `100.100.100.200`.
    case cloudMetadata
    /// `224.0.0.0/4` or `ff00::/8`.
    case multicast
    /// `240.0.0.0/4`, which holds the broadcast address `255.255.255.255`.
    case broadcastOrReserved
    /// `10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, `100.64.0.0/10` or `fc00::/7`, refused
    /// only under ``OutboundPolicy/refusesPrivateNetworks``.
    case privateNetwork

    /// The kind in words, for an error or an operator's page.
    public var description: String {
        switch self {
        case .unspecified: "an unspecified address"
        case .loopback: "a loopback address"
        case .linkLocal: "a link-local address"
        case .cloudMetadata: "a cloud metadata address"
        case .multicast: "a multicast address"
        case .broadcastOrReserved: "a broadcast or reserved address"
        case .privateNetwork: "a private-network address"
        }
    }
}
