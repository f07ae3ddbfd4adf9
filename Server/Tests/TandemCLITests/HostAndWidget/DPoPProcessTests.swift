import Foundation
import TandemAuth
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import TandemTool
import Testing

/// DPoP with real processes (issue 24): for an app that requires it, the host binds its grant to
/// its own key and the widgets' grant to the widgets' key; widget processes refresh and read with
/// that key; and the widgets' refresh token, taken from the shared container by anyone with the
/// App Group's files and the auxiliary share, is worth nothing without the key.
@Suite("DPoP across processes", .serialized)
struct DPoPProcessTests {
    static let customers = ["--destination", "sales", "--entity-set", "Customers", "--limit", "3"]

    @Test func aRefreshTokenStolenFromTheSharedContainerCannotBeRedeemedWithoutTheWidgetsKey() async throws {
        let fixture = try await ExtensionFixture.start(dpopRequired: true)
        defer { Task { try? await fixture.stop() } }

        let refresh = try await fixture.widget(["refresh"])
        #expect(refresh.status == 0, "\(refresh.stderr)")
        #expect(try ExtensionFixture.lastJSON(refresh.stdout)["result"] as? String == "ok")
        let fetch = try ExtensionFixture.lastJSON(try await fixture.widget(["fetch"] + Self.customers).stdout)
        #expect(fetch["status"] as? Int == 200, "the widget reads with its bound token and its key")

        // What a thief with the App Group's files gets: the sealed grant, opened with the share.
        let home = try ExtensionHome(root: URL(fileURLWithPath: fixture.dir))
        let stolen = try #require(try SharedGrantStore(container: home.container, share: home.extensionCredentials().share).load())
        #expect(stolen.isDPoPBound)
        let refreshToken = try #require(stolen.refreshToken)
        let form = [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "tandem-demo")]
        let http = HTTPTestClient()

        let asBearer = try await http.postForm(fixture.server.baseURL, "oauth/token", form)
        #expect(asBearer.status == 400)
        #expect(asBearer.json["error"] == "invalid_dpop_proof")

        // With a key of the thief's own, after learning the server's nonce.
        let thief = SoftwareDPoPKey()
        let tokenURL = fixture.server.baseURL.appendingPathComponent("oauth/token")
        let first = try await http.postForm(fixture.server.baseURL, "oauth/token", form, headers: [
            "DPoP": try DPoPProof.make(signer: thief, method: "POST", url: tokenURL, issuedAt: Date()),
        ])
        let nonce = try #require(first.header("DPoP-Nonce"))
        let withOwnKey = try await http.postForm(fixture.server.baseURL, "oauth/token", form, headers: [
            "DPoP": try DPoPProof.make(signer: thief, method: "POST", url: tokenURL, issuedAt: Date(), nonce: nonce),
        ])
        #expect(withOwnKey.status == 400)
        #expect(withOwnKey.json["error"] == "invalid_dpop_proof")

        // The stolen token's access token, as Bearer, reads nothing either.
        let read = try await http.get(fixture.server.baseURL, "v1/destinations", headers: ["Authorization": "Bearer \(stolen.accessToken)"])
        #expect(read.status == 401)

        // Nothing was spent: the widget still refreshes with its key.
        let again = try await fixture.widget(["refresh"])
        #expect(again.status == 0, "\(again.stderr)")
        let refreshedAgain = try ExtensionFixture.lastJSON(again.stdout)
        #expect(refreshedAgain["result"] as? String == "ok")
        #expect(refreshedAgain["refreshed"] as? Bool == true)
    }
}
