/// The address rules of an ``OutboundPolicy``, applied to every address a backend's host
/// resolves to. An IPv6 address that carries an IPv4 address is judged in both forms.
struct AddressRules: Sendable {
    private let allowsLoopback: Bool
    private let refusesPrivateNetworks: Bool
    private let exceptions: [CIDRBlock]

    init(policy: OutboundPolicy) {
        allowsLoopback = policy.allowsLoopback
        refusesPrivateNetworks = policy.refusesPrivateNetworks
        exceptions = policy.allowedAddresses
    }

    /// Why `address` is refused, or `nil` when it may be called.
    func refusal(for address: IPAddress) -> RefusedAddressKind? {
        var forms = [address]
        if let embedded = address.embeddedIPv4 { forms.append(.v4(embedded)) }
        if forms.contains(where: { form in exceptions.contains { $0.contains(form) } }) { return nil }
        for form in forms {
            if let kind = builtInRefusal(for: form) { return kind }
        }
        return nil
    }

    /// Whether `address`, in either form, is a loopback address.
    static func isLoopback(_ address: IPAddress) -> Bool {
        switch address {
        case .v4(let value):
            return value >> 24 == 127
        case .v6(let value):
            return value == 1 || address.embeddedIPv4.map { isLoopback(.v4($0)) } == true
        }
    }

    private func builtInRefusal(for address: IPAddress) -> RefusedAddressKind? {
        if Self.isLoopback(address) { return allowsLoopback ? nil : .loopback }
        for (block, kind) in Self.alwaysRefused where block.contains(address) {
            return kind
        }
        if refusesPrivateNetworks, Self.privateNetworks.contains(where: { $0.contains(address) }) {
            return .privateNetwork
        }
        return nil
    }

    private static let alwaysRefused: [(CIDRBlock, RefusedAddressKind)] = [
        ("169.254.169.254/32", .cloudMetadata),
        ("100.100.100.200/32", .cloudMetadata),
        ("fd00:ec2::254/128", .cloudMetadata),
        ("0.0.0.0/8", .unspecified),
        ("::/128", .unspecified),
        ("169.254.0.0/16", .linkLocal),
        ("fe80::/10", .linkLocal),
        ("224.0.0.0/4", .multicast),
        ("ff00::/8", .multicast),
        ("240.0.0.0/4", .broadcastOrReserved),
    ].compactMap { text, kind in CIDRBlock(text).map { ($0, kind) } }

    private static let privateNetworks: [CIDRBlock] = [
        "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "100.64.0.0/10", "fc00::/7",
    ].compactMap { CIDRBlock($0) }
}
