import Foundation
import NIOSSL
import TandemBackends
import Testing

@Suite("Outbound client: TLS to a pinned address")
struct TLSTests {
    private static func serverContext() throws -> NIOSSLContext {
        let certificate = try NIOSSLCertificate(bytes: Array(TestCertificates.serverPEM.utf8), format: .pem)
        let key = try NIOSSLPrivateKey(bytes: Array(TestCertificates.serverKeyPEM.utf8), format: .pem)
        return try NIOSSLContext(
            configuration: .makeServerConfiguration(
                certificateChain: [.certificate(certificate)], privateKey: .privateKey(key)))
    }

    /// The default policy, with the loopback allowed as an explicit exception and the test CA
    /// trusted, and time limits long enough for a busy machine (a TLS handshake of a debug build
    /// beside every other suite has taken more than the default 5 s to connect).
    private static func policy(trustingTestCA: Bool = true) -> OutboundPolicy {
        OutboundPolicy(
            allowedAddresses: [CIDRBlock("127.0.0.1")!], connectTimeout: .seconds(60), requestTimeout: .seconds(60),
            additionalTrustRootsPEM: trustingTestCA ? [TestCertificates.authorityPEM] : [])
    }

    @Test("HTTPS to backend.test pinned to 127.0.0.1 verifies the certificate against the name and succeeds")
    func verifiedAgainstOriginalName() async throws {
        try await withTestServer(tls: try Self.serverContext(), respond: { _ in .text("secure") }) { server in
            let resolver = TableResolver(["backend.test": ["127.0.0.1"]])
            try await withClient(Self.policy(), resolver: resolver) { client in
                let response = try await client.send(
                    BackendRequest(.get, server.url("/", scheme: "https", name: "backend.test")))
                #expect(String(decoding: response.body, as: UTF8.self) == "secure")
                #expect(server.requests.first?.header("Host") == "backend.test:\(server.port)")
            }
        }
    }

    @Test("Without the on-premises root the certificate is not trusted")
    func untrustedRoot() async throws {
        try await withTestServer(tls: try Self.serverContext(), respond: { _ in .text("secure") }) { server in
            let resolver = TableResolver(["backend.test": ["127.0.0.1"]])
            try await withClient(Self.policy(trustingTestCA: false), resolver: resolver) { client in
                let error = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/", scheme: "https", name: "backend.test")))
                }
                guard case .tlsFailed(let origin, _) = error else {
                    Issue.record("expected a TLS failure, got \(String(describing: error))")
                    return
                }
                #expect(origin == "https://backend.test:\(server.port)")
                #expect(server.requests.isEmpty)
            }
        }
    }

    @Test("A name the certificate does not carry fails even though the address is the same")
    func wrongName() async throws {
        try await withTestServer(tls: try Self.serverContext(), respond: { _ in .text("secure") }) { server in
            let resolver = TableResolver(["other.test": ["127.0.0.1"]])
            try await withClient(Self.policy(), resolver: resolver) { client in
                let byName = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/", scheme: "https", name: "other.test")))
                }
                let byAddress = await outboundError { () async throws(OutboundCallError) in
                    try await client.send(BackendRequest(.get, server.url("/", scheme: "https")))
                }
                for error in [byName, byAddress] {
                    guard case .tlsFailed = error else {
                        Issue.record("expected a TLS failure, got \(String(describing: error))")
                        continue
                    }
                }
                #expect(server.requests.isEmpty)
            }
        }
    }
}
