import TandemBackends
import Foundation
import Testing

@Suite("System resolver")
struct SystemHostResolverTests {
    @Test("localhost resolves, off the event loops, to loopback addresses only")
    func localhost() async throws {
        let addresses = try await SystemHostResolver().addresses(of: "localhost")
        #expect(!addresses.isEmpty)
        #expect(addresses.contains(IPAddress("127.0.0.1")!) || addresses.contains(IPAddress("::1")!))
        #expect(addresses.allSatisfy { $0 == IPAddress("::1") || $0.description.hasPrefix("127.") })
        #expect(Set(addresses).count == addresses.count)
    }

    @Test(
        "Numeric host spellings the system reads as 127.0.0.1 are judged by the address they resolve to",
        arguments: ["2130706433", "0177.0.0.1", "127.1"])
    func numericSpellings(_ host: String) async throws {
        try await withClient(OutboundPolicy(), resolver: SystemHostResolver()) { client in
            let error = await outboundError { () async throws(OutboundCallError) in
                try await client.send(BackendRequest(.get, URL(string: "https://\(host)/")!))
            }
            #expect(error == .addressRefused(host: host, address: IPAddress("127.0.0.1")!, kind: .loopback))
        }
    }

    @Test("A cancelled lookup returns cancelled")
    func cancelled() async {
        let task = Task { () async throws(OutboundCallError) -> [IPAddress] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await SystemHostResolver().addresses(of: "localhost")
        }
        let result = await task.result
        #expect(throws: OutboundCallError.cancelled) { try result.get() }
    }
}
