import Synchronization
import TandemBackends

/// A resolver that answers from a table the test can change between calls, and counts lookups.
/// Host names like `backend.test` have no address in the system's DNS, so a call to one that
/// arrives at all arrived through the address the client pinned.
final class TableResolver: HostResolving {
    private let table: Mutex<[String: [IPAddress]]>
    private let lookups = Mutex(0)

    init(_ table: [String: [String]]) {
        self.table = Mutex(table.mapValues { $0.compactMap { IPAddress($0) } })
    }

    func set(_ host: String, to addresses: [String]) {
        table.withLock { $0[host] = addresses.compactMap { IPAddress($0) } }
    }

    var lookupCount: Int { lookups.withLock { $0 } }

    func addresses(of host: String) async throws(OutboundCallError) -> [IPAddress] {
        lookups.withLock { $0 += 1 }
        guard let addresses = table.withLock({ $0[host.lowercased()] }), !addresses.isEmpty else {
            throw .resolutionFailed(host: host)
        }
        return addresses
    }
}
