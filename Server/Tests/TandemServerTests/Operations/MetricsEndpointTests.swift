import Foundation
import TandemServerTestSupport
import Testing

@testable import TandemServer

/// `/metrics` needs a credential (issue 24's first-review probe): off without a configured token,
/// 401 without the right one, the Prometheus text with it; the server keeps only its SHA-256.
@Suite("Metrics endpoint")
struct MetricsEndpointTests {
    static let token = "tmt_" + String(repeating: "m", count: 40)

    @Test("without a token configured the endpoint is off")
    func offWithoutAToken() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let status = try await InProcessServer.test(database) { client in try await client.get("metrics").status }
            #expect(status == 404)
        }
    }

    @Test("a scraper needs the token: none or a wrong one is 401, the right one gets the metrics")
    func theTokenIsRequired() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            try await InProcessServer.test(database, configure: { try? $0.setMetricsToken(Self.token) }) { client in
                _ = try await client.get("health")
                let anonymous = try await client.get("metrics")
                #expect(anonymous.status == 401)
                #expect(anonymous.header("WWW-Authenticate") == #"Bearer realm="metrics""#)
                #expect(try await client.get("metrics", headers: ["Authorization": "Bearer " + Self.token + "x"]).status == 401)
                #expect(try await client.get("metrics", headers: ["Authorization": "Basic " + Self.token]).status == 401)
                let scraped = try await client.get("metrics", headers: ["Authorization": "Bearer " + Self.token])
                #expect(scraped.status == 200)
                #expect(String(decoding: scraped.body, as: UTF8.self).contains("hb_request"))
            }
        }
    }

    @Test("the configuration keeps only the token's hash and refuses a short one")
    func tokenRules() throws {
        var configuration = TandemServerConfiguration(host: "127.0.0.1", port: 0, database: .sqlite(path: "/tmp/unused.sqlite"), issuer: "http://x")
        #expect(throws: MetricsTokenError.self) { try configuration.setMetricsToken("short") }
        #expect(throws: MetricsTokenError.self) { try configuration.setMetricsToken(String(repeating: "a", count: 31) + " ") }
        try configuration.setMetricsToken(Self.token)
        #expect(configuration.metricsTokenHash == SecretToken.hash(Self.token))
        #expect(configuration.metricsTokenHash != Self.token)
    }
}
