import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// How `/oauth/token` and `/oauth/revoke` treat the client: an unknown client is `invalid_client`
/// with 400 (these public clients never authenticate with a header, RFC 6749 §5.2) or, when an
/// Authorization header was tried, 401 with a `WWW-Authenticate` challenge (RFC 9110 §11.6.1);
/// and the rate limit is kept per registered client, with one shared bucket for unknown ones.
@Suite("Token endpoint clients")
struct TokenEndpointClientTests {
    @Test("an unknown client gets invalid_client: 400 without an Authorization header, 401 with a challenge with one", arguments: ["oauth/token", "oauth/revoke"])
    func unknownClientAnswers(path: String) async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let fields = [("grant_type", "refresh_token"), ("refresh_token", "tdr_x"), ("token", "tdr_x"), ("client_id", "nobody")]
                let plain = try await client.postForm(path, fields)
                #expect(plain.status == 400)
                #expect(plain.json["error"] == "invalid_client")

                let basic = "Basic " + Data("nobody:secret".utf8).base64EncodedString()
                let withHeader = try await client.postForm(path, fields, headers: ["Authorization": basic])
                #expect(withHeader.status == 401)
                #expect(withHeader.json["error"] == "invalid_client")
                #expect(withHeader.header("WWW-Authenticate")?.hasPrefix("Basic realm=") == true)
            }
        }
    }

    @Test("random unknown client ids share one bucket; a registered client keeps its own")
    func unknownClientsShareOneBucket() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test(configure: { $0.tokenRateLimit = RateLimitPolicy(requestsPerSecond: 0.1, burst: 5) }) { client in
                var statuses: [Int] = []
                for _ in 0..<12 {
                    let response = try await fixture.refresh(client, "tdr_x", clientID: "random-\(UUID().uuidString)")
                    statuses.append(response.status)
                }
                #expect(statuses.filter { $0 == 429 }.count >= 5, "\(statuses)")
                let registered = try await fixture.refresh(client, "tdr_x")
                #expect(registered.status == 400, "the registered client was limited with the unknown ones")
                #expect(registered.json["error"] == "invalid_grant")
            }
        }
    }
}
