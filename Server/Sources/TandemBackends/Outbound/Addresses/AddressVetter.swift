/// Resolves a target's host and picks the address to connect to, after judging every address
/// the host has by the policy's address rules.
struct AddressVetter: Sendable {
    let rules: AddressRules
    let resolver: any HostResolving

    /// The address to pin the connection to: the first of the host's addresses, once none of
    /// them is refused.
    func vettedAddress(for target: BackendTarget) async throws(OutboundCallError) -> IPAddress {
        let addresses: [IPAddress]
        if let literal = target.literal {
            addresses = [literal]
        } else {
            addresses = try await resolver.addresses(of: target.connectionHost)
        }
        guard let first = addresses.first else { throw .resolutionFailed(host: target.origin.host) }
        for address in addresses {
            if let kind = rules.refusal(for: address) {
                throw .addressRefused(host: target.origin.host, address: address, kind: kind)
            }
        }
        if target.isPlainHTTP, !addresses.allSatisfy(AddressRules.isLoopback) {
            throw .plainHTTPRefused(origin: target.origin.description)
        }
        return first
    }
}
