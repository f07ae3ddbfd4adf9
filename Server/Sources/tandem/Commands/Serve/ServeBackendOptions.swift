import ArgumentParser
import Foundation
import TandemBackends
import TandemServer

/// `tandem serve`'s options for the calls it makes to customers' backends: which addresses they
/// may reach beyond the defaults (HTTPS to public and private networks; never loopback,
/// link-local or cloud metadata addresses) and which extra certificate authorities they trust.
struct ServeBackendOptions: ParsableArguments {
    @Flag(name: .long, help: "Let backend destinations call loopback addresses, over plain http too (development only).")
    var backendAllowLoopback = false

    @Flag(name: .long, help: "Refuse private networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) for backend calls too.")
    var backendRefusePrivateNetworks = false

    @Option(name: .customLong("backend-allow-address"), help: "An address block (CIDR) backend calls may reach even when a rule refuses it (repeat for several).")
    var allowedAddresses: [String] = []

    @Option(name: .customLong("backend-trust-root"), help: "A PEM file of a certificate authority backend calls trust besides the system's (repeat for several).")
    var trustRoots: [String] = []

    func validate() throws {
        for block in allowedAddresses where CIDRBlock(block) == nil {
            throw ValidationError("--backend-allow-address must be an address block such as 10.20.0.0/16, not \(block.debugDescription)")
        }
    }

    /// Sets the outbound policy of `configuration`.
    ///
    /// - Throws: `ValidationError` for a trust root that cannot be read.
    func apply(to configuration: inout TandemServerConfiguration) throws {
        configuration.outbound = try policy(changing: configuration.outbound)
    }

    /// `policy` with these options applied.
    ///
    /// - Throws: `ValidationError` for a trust root that cannot be read.
    func policy(changing policy: OutboundPolicy = OutboundPolicy()) throws -> OutboundPolicy {
        var policy = policy
        policy.allowsLoopback = backendAllowLoopback
        policy.refusesPrivateNetworks = backendRefusePrivateNetworks
        policy.allowedAddresses = allowedAddresses.compactMap { CIDRBlock($0) }
        policy.additionalTrustRootsPEM = try trustRoots.map { path in
            guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw ValidationError("--backend-trust-root \(path.debugDescription) cannot be read")
            }
            return text
        }
        return policy
    }
}
