import AsyncHTTPClient
import Foundation
import NIOPosix
import Testing

@testable import TandemBackends

@Suite("Pinned clients")
struct PinnedClientPoolTests {
    @Test(
        "Calls to one host share a client; when the vetted address changes, the connection follows it and the old client goes"
    )
    func followsTheVettedAddress() async throws {
        try await withTestServer(host: "127.0.0.1", respond: { _ in .text("first") }) { first in
            try await withTestServer(host: "127.0.0.2", port: first.port, respond: { _ in .text("second") }) { second in
                let resolver = TableResolver(["backend.test": ["127.0.0.1"]])
                try await withClient(resolver: resolver) { client in
                    let url = first.url("/", name: "backend.test")
                    for _ in 0..<2 {
                        let response = try await client.send(BackendRequest(.get, url))
                        #expect(String(decoding: response.body, as: UTF8.self) == "first")
                    }
                    #expect(client.pinnedClientCount == 1)
                    resolver.set("backend.test", to: ["127.0.0.2"])
                    let moved = try await client.send(BackendRequest(.get, url))
                    #expect(String(decoding: moved.body, as: UTF8.self) == "second")
                    #expect(first.requests.count == 2)
                    #expect(second.requests.count == 1)
                    #expect(second.requests.first?.header("Host") == "backend.test:\(first.port)")
                    #expect(client.pinnedClientCount == 1)
                }
            }
        }
    }

    @Test("A host written with other letter case gets its own pinned client")
    func hostsAreKeyedAsWritten() async throws {
        try await withTestServer(respond: { _ in .text("ok") }) { server in
            let resolver = TableResolver(["backend.test": ["127.0.0.1"]])
            try await withClient(resolver: resolver) { client in
                _ = try await client.send(BackendRequest(.get, server.url("/", name: "backend.test")))
                _ = try await client.send(BackendRequest(.get, server.url("/", name: "BACKEND.test")))
                #expect(server.requests.count == 2)
                #expect(client.pinnedClientCount == 2)
            }
        }
    }
}

@Suite("Pinned clients: the last check")
struct PinnedClientPoolGuardTests {
    @Test("The pool itself refuses to make a client for a refused address or plain http off the loopback")
    func refusesAtTheLastStep() async throws {
        let policy = OutboundPolicy(allowsLoopback: true)
        let pool = PinnedClientPool(capacity: 4, rules: AddressRules(policy: policy)) { _ in
            HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton)
        }
        let cases: [(String, String, OutboundCallError)] = [
            (
                "https://metadata.test/", "169.254.169.254",
                .addressRefused(host: "metadata.test", address: IPAddress("169.254.169.254")!, kind: .cloudMetadata)
            ),
            (
                "https://[fd00:ec2::254]/", "fd00:ec2::254",
                .addressRefused(host: "fd00:ec2::254", address: IPAddress("fd00:ec2::254")!, kind: .cloudMetadata)
            ),
            ("http://backend.test/", "10.1.2.3", .plainHTTPRefused(origin: "http://backend.test")),
        ]
        for (url, address, expected) in cases {
            let target = try BackendTarget(url: URL(string: url)!, policy: policy)
            let error = await outboundError { () async throws(OutboundCallError) in
                try await pool.withClient(for: target, address: IPAddress(address)!) { _ in () }
            }
            #expect(error == expected)
        }
        #expect(pool.clientCount == 0)
        await pool.shutdown()
    }
}
