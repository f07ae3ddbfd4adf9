import Foundation
import TandemBackends
import Testing

@Suite("Outbound policy")
struct OutboundPolicyTests {
    @Test("Defaults are HTTPS-only with private networks allowed, 3 redirects, 8 MiB, 5 s and 15 s")
    func defaults() {
        let policy = OutboundPolicy()
        #expect(!policy.allowsLoopback)
        #expect(!policy.refusesPrivateNetworks)
        #expect(policy.allowedAddresses.isEmpty)
        #expect(policy.maximumRedirects == 3)
        #expect(policy.maximumResponseBytes == 8 * 1024 * 1024)
        #expect(policy.connectTimeout == .seconds(5))
        #expect(policy.requestTimeout == .seconds(15))
        #expect(policy.circuitBreaker == CircuitBreakerSettings())
        #expect(policy.problem == nil)
    }

    @Test("A partial configuration decodes with defaults for what it leaves out, durations in seconds")
    func partialJSON() throws {
        let json =
            #"{"refusesPrivateNetworks":true,"allowedAddresses":["10.20.0.0/16"],"requestTimeoutSeconds":2.5,"circuitBreaker":{"failureThreshold":2}}"#
        let policy = try JSONDecoder().decode(OutboundPolicy.self, from: Data(json.utf8))
        #expect(policy.refusesPrivateNetworks)
        #expect(policy.allowedAddresses == [CIDRBlock("10.20.0.0/16")!])
        #expect(policy.requestTimeout == .milliseconds(2500))
        #expect(policy.connectTimeout == .seconds(5))
        #expect(policy.circuitBreaker.failureThreshold == 2)
        #expect(policy.circuitBreaker.openDuration == .seconds(30))
    }

    @Test("A policy survives encoding and decoding")
    func roundTrip() throws {
        let policy = OutboundPolicy(
            allowsLoopback: true, allowedAddresses: [CIDRBlock("fd00::/8")!], maximumRedirects: 1,
            connectTimeout: .milliseconds(1500), additionalTrustRootsPEM: [TestCertificates.authorityPEM],
            circuitBreaker: CircuitBreakerSettings(failureThreshold: 7, openDuration: .seconds(5)))
        let decoded = try JSONDecoder().decode(OutboundPolicy.self, from: try JSONEncoder().encode(policy))
        #expect(decoded == policy)
    }

    @Test("Durations that are negative or absurd do not decode")
    func badDurations() {
        for json in [#"{"connectTimeoutSeconds":-1}"#, #"{"requestTimeoutSeconds":1e300}"#] {
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(OutboundPolicy.self, from: Data(json.utf8)) }
        }
    }

    @Test("A client refuses an impossible policy and a trust root that is not a certificate")
    func invalidPolicies() {
        let impossible = [
            OutboundPolicy(maximumRedirects: -1),
            OutboundPolicy(requestTimeout: .zero),
            OutboundPolicy(circuitBreaker: CircuitBreakerSettings(failureThreshold: 0)),
        ]
        for policy in impossible {
            #expect(throws: OutboundCallError.self) { try BackendHTTPClient(policy: policy, logger: quietLogger) }
        }
        #expect(throws: OutboundCallError.invalidPolicy(reason: "an additional trust root is not a PEM certificate")) {
            try BackendHTTPClient(
                policy: OutboundPolicy(additionalTrustRootsPEM: ["not a certificate"]), logger: quietLogger)
        }
    }
}
