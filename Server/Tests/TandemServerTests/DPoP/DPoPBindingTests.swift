import Foundation
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// DPoP binding end to end through the server's routes (RFC 9449): the token endpoint's nonce,
/// grants bound to the proof's key, refresh tokens that redeem only with that key, resource
/// requests that need a proof by it, introspection that says so, and apps that require it.
@Suite("DPoP-bound tokens")
struct DPoPBindingTests {
    static let tokenURL = URL(string: InProcessServer.issuer + "/oauth/token")!

    /// A token request with a proof by `key` (with `nonce`, when given; for `accessToken`, the
    /// exchange's subject token, when given), and a second proof by `bindKey` in
    /// `Tandem-DPoP-Bind` when given.
    static func post(
        _ client: InProcessClient, _ fields: [(String, String)], key: SoftwareDPoPKey?, nonce: String?, clock: ManualClock,
        accessToken: String? = nil, bindKey: SoftwareDPoPKey? = nil
    ) async throws -> HTTPTestResponse {
        var headers: [String: String] = [:]
        if let key {
            headers["DPoP"] = try DPoPProof.make(
                signer: key, method: "POST", url: tokenURL, issuedAt: clock.now, accessToken: accessToken, nonce: nonce)
        }
        if let bindKey {
            headers[DPoPProof.bindHeaderName] = try DPoPProof.make(signer: bindKey, method: "POST", url: tokenURL, issuedAt: clock.now, nonce: nonce)
        }
        return try await client.postForm("oauth/token", fields, headers: headers)
    }

    /// A token request with its proofs, after learning the server's nonce the way a client does:
    /// the first try is refused with `use_dpop_nonce` and the nonce to use.
    static func postLearningNonce(
        _ client: InProcessClient, _ fields: [(String, String)], key: SoftwareDPoPKey?, clock: ManualClock,
        accessToken: String? = nil, bindKey: SoftwareDPoPKey? = nil
    ) async throws -> HTTPTestResponse {
        let first = try await post(client, fields, key: key, nonce: nil, clock: clock, accessToken: accessToken, bindKey: bindKey)
        guard first.status == 400, first.json["error"] == "use_dpop_nonce", let nonce = first.header("DPoP-Nonce") else { return first }
        return try await post(client, fields, key: key, nonce: nonce, clock: clock, accessToken: accessToken, bindKey: bindKey)
    }

    /// The token exchange's fields for the subject token `access`.
    static func exchangeFields(_ access: String) -> [(String, String)] {
        [
            ("grant_type", GrantType.tokenExchange.rawValue), ("client_id", OAuthFlowFixture.clientID),
            ("subject_token", access), ("subject_token_type", TokenTypeIdentifier.accessToken.rawValue),
        ]
    }

    static func codeFields(_ code: String, verifier: String) -> [(String, String)] {
        [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", OAuthFlowFixture.redirectURI),
            ("client_id", OAuthFlowFixture.clientID), ("code_verifier", verifier),
        ]
    }

    static func refreshFields(_ token: String) -> [(String, String)] {
        [("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", OAuthFlowFixture.clientID)]
    }

    /// The claims of an access token (a JWT), unverified: the tests read what the server wrote.
    static func claims(of token: String) throws -> [String: Any] {
        let parts = token.split(separator: ".")
        guard parts.count == 3, let payload = Base64URL.decode(String(parts[1])),
            let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { throw TestSetupError("not a JWT") }
        return object
    }

    /// A bound grant: the code flow with a proof by `key`.
    static func boundGrant(
        _ fixture: OAuthFlowFixture, _ client: InProcessClient, key: SoftwareDPoPKey
    ) async throws -> (access: String, refresh: String) {
        let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
        let response = try await postLearningNonce(client, codeFields(code, verifier: pkce.verifier), key: key, clock: fixture.clock)
        guard response.status == 200, let access = response.json["access_token"], let refresh = response.json["refresh_token"] else {
            throw TestSetupError("the bound code grant answered \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return (access, refresh)
    }

    @Test("the token endpoint asks for its nonce, then binds the grant to the proof's key (cnf.jkt, token_type DPoP)")
    func codeGrantIsBoundToTheProofKey() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let key = SoftwareDPoPKey()
                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let fields = Self.codeFields(code, verifier: pkce.verifier)

                let withoutNonce = try await Self.post(client, fields, key: key, nonce: nil, clock: fixture.clock)
                #expect(withoutNonce.status == 400)
                #expect(withoutNonce.json["error"] == "use_dpop_nonce")
                let nonce = try #require(withoutNonce.header("DPoP-Nonce"))

                let granted = try await Self.post(client, fields, key: key, nonce: nonce, clock: fixture.clock)
                #expect(granted.status == 200, "\(String(decoding: granted.body, as: UTF8.self))")
                #expect(granted.json["token_type"] == "DPoP")
                #expect(granted.header("DPoP-Nonce") != nil, "every answer carries the current nonce")
                let access = try #require(granted.json["access_token"])
                let cnf = try #require(try Self.claims(of: access)["cnf"] as? [String: String])
                #expect(cnf == ["jkt": key.publicKey.thumbprint])

                let introspection = try await client.postForm("oauth/introspect", [("token", access)], headers: ["X-API-Key": fixture.apiKey])
                #expect(introspection.json["token_type"] == "DPoP")
                #expect(introspection.object["cnf"] as? [String: String] == ["jkt": key.publicKey.thumbprint])
            }
        }
    }

    @Test("a stolen refresh token is useless without the key, and presenting it changes nothing")
    func aStolenRefreshTokenIsUselessWithoutTheKey() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let key = SoftwareDPoPKey()
                let (_, refresh) = try await Self.boundGrant(fixture, client, key: key)

                // The thief has the token, not the key: without a proof, with a proof by a key of
                // their own, or as a plain bearer grant, nothing redeems it.
                let noProof = try await Self.post(client, Self.refreshFields(refresh), key: nil, nonce: nil, clock: fixture.clock)
                #expect(noProof.status == 400)
                #expect(noProof.json["error"] == "invalid_dpop_proof")
                let otherKey = try await Self.postLearningNonce(client, Self.refreshFields(refresh), key: SoftwareDPoPKey(), clock: fixture.clock)
                #expect(otherKey.status == 400)
                #expect(otherKey.json["error"] == "invalid_dpop_proof")

                // The token was not spent: its holder still refreshes, with the key.
                let rotated = try await Self.postLearningNonce(client, Self.refreshFields(refresh), key: key, clock: fixture.clock)
                #expect(rotated.status == 200, "\(String(decoding: rotated.body, as: UTF8.self))")
                #expect(rotated.json["token_type"] == "DPoP")
                let successor = try #require(rotated.json["refresh_token"])

                // Past the grace window, the spent token replayed without the key neither
                // revokes the grant (reuse detection needs the key) nor says it was spent.
                fixture.clock.advance(by: .seconds(120))
                let replay = try await Self.postLearningNonce(client, Self.refreshFields(refresh), key: SoftwareDPoPKey(), clock: fixture.clock)
                #expect(replay.json["error"] == "invalid_dpop_proof")
                let next = try await Self.postLearningNonce(client, Self.refreshFields(successor), key: key, clock: fixture.clock)
                #expect(next.status == 200, "the grant lives on: \(String(decoding: next.body, as: UTF8.self))")
            }
        }
    }

    @Test("a bound token reaches resources only as DPoP with a fresh proof by its key for that request")
    func resourceRequestsNeedAProofByTheKey() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let key = SoftwareDPoPKey()
                let (access, _) = try await Self.boundGrant(fixture, client, key: key)
                let url = URL(string: InProcessServer.issuer + "/v1/destinations")!
                func proof(_ signer: SoftwareDPoPKey, method: String = "GET", token: String? = access) throws -> String {
                    try DPoPProof.make(signer: signer, method: method, url: url, issuedAt: fixture.clock.now, accessToken: token)
                }

                let asBearer = try await client.get("v1/destinations", headers: ["Authorization": "Bearer \(access)"])
                #expect(asBearer.status == 401)
                #expect(asBearer.json["error"] == "invalid_token")
                let withoutProof = try await client.get("v1/destinations", headers: ["Authorization": "DPoP \(access)"])
                #expect(withoutProof.status == 401)
                #expect(withoutProof.json["error"] == "invalid_dpop_proof")
                #expect(withoutProof.header("WWW-Authenticate")?.hasPrefix("DPoP ") == true)
                for wrong in [try proof(SoftwareDPoPKey()), try proof(key, method: "POST"), try proof(key, token: "another token")] {
                    let refused = try await client.get("v1/destinations", headers: ["Authorization": "DPoP \(access)", "DPoP": wrong])
                    #expect(refused.status == 401)
                    #expect(refused.json["error"] == "invalid_dpop_proof")
                }

                let good = try proof(key)
                let accepted = try await client.get("v1/destinations", headers: ["Authorization": "DPoP \(access)", "DPoP": good])
                #expect(accepted.status == 200, "\(String(decoding: accepted.body, as: UTF8.self))")
                let replayed = try await client.get("v1/destinations", headers: ["Authorization": "DPoP \(access)", "DPoP": good])
                #expect(replayed.status == 401, "a proof is accepted once")
            }
        }
    }

    @Test("a proof replayed to another instance sharing the database is refused there", arguments: TestBackend.allCases)
    func aReplayedProofIsRefusedOnASecondInstance(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { instanceA in
                try await fixture.test { instanceB in
                    let key = SoftwareDPoPKey()
                    let (access, _) = try await Self.boundGrant(fixture, instanceA, key: key)
                    let proof = try DPoPProof.make(
                        signer: key, method: "GET", url: URL(string: InProcessServer.issuer + "/v1/destinations")!,
                        issuedAt: fixture.clock.now, accessToken: access)
                    let headers = ["Authorization": "DPoP \(access)", "DPoP": proof]
                    #expect(try await instanceA.get("v1/destinations", headers: headers).status == 200)
                    let replayed = try await instanceB.get("v1/destinations", headers: headers)
                    #expect(replayed.status == 401)
                    #expect(replayed.json["error"] == "invalid_dpop_proof")
                }
            }
        }
    }

    @Test("the token exchange binds the widgets' grant to the key of its bind proof, not the host's, whose proof uses the token")
    func tokenExchangeBindsTheExtensionGrantToItsProofKey() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let hostKey = SoftwareDPoPKey()
                let widgetKey = SoftwareDPoPKey()
                let (access, _) = try await Self.boundGrant(fixture, client, key: hostKey)
                let granted = try await Self.postLearningNonce(
                    client, Self.exchangeFields(access), key: hostKey, clock: fixture.clock, accessToken: access, bindKey: widgetKey)
                #expect(granted.status == 200, "\(String(decoding: granted.body, as: UTF8.self))")
                #expect(granted.json["token_type"] == "DPoP")
                let extensionAccess = try #require(granted.json["access_token"])
                let cnf = try Self.claims(of: extensionAccess)["cnf"] as? [String: String]
                #expect(cnf == ["jkt": widgetKey.publicKey.thumbprint])

                let extensionRefresh = try #require(granted.json["refresh_token"])
                let byHost = try await Self.postLearningNonce(client, Self.refreshFields(extensionRefresh), key: hostKey, clock: fixture.clock)
                #expect(byHost.json["error"] == "invalid_dpop_proof", "the host's key does not redeem the widgets' grant")
                let byWidgets = try await Self.postLearningNonce(client, Self.refreshFields(extensionRefresh), key: widgetKey, clock: fixture.clock)
                #expect(byWidgets.status == 200)
            }
        }
    }

    @Test("an app that requires DPoP gets no grant without a proof, and its configuration says so")
    func anAppThatRequiresDPoPRefusesBearerGrants() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await database.withStorage { storage in
                let changed = try await storage.apps.setDPoPRequired(clientID: OAuthFlowFixture.clientID, required: true)
                #expect(changed)
            }
            try await fixture.test { client in
                let configuration = try await client.get("v1/apps/\(OAuthFlowFixture.clientID)/configuration")
                #expect(configuration.object["dpop_required"] as? Bool == true)

                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let fields = Self.codeFields(code, verifier: pkce.verifier)
                let bearer = try await Self.post(client, fields, key: nil, nonce: nil, clock: fixture.clock)
                #expect(bearer.status == 400)
                #expect(bearer.json["error"] == "invalid_dpop_proof")
                // Refused before the code was spent: the same code redeems with a proof.
                let bound = try await Self.postLearningNonce(client, fields, key: SoftwareDPoPKey(), clock: fixture.clock)
                #expect(bound.status == 200)
                #expect(bound.json["token_type"] == "DPoP")
            }
        }
    }

    @Test("a bearer grant refreshed with a proof is bound from then on, where its app has started requiring DPoP")
    func aBearerGrantRefreshedWithAProofIsBound() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let bearer = try await fixture.redeem(client, code: code, verifier: pkce.verifier)
                let refresh = try #require(bearer.json["refresh_token"])
                try await database.withStorage { storage in
                    _ = try await storage.apps.setDPoPRequired(clientID: OAuthFlowFixture.clientID, required: true)
                }
                fixture.clock.advance(by: .seconds(2))  // the client directory's cache of the app
                let key = SoftwareDPoPKey()
                let bound = try await Self.postLearningNonce(client, Self.refreshFields(refresh), key: key, clock: fixture.clock)
                #expect(bound.status == 200)
                #expect(bound.json["token_type"] == "DPoP")
                let access = try #require(bound.json["access_token"])
                #expect(try Self.claims(of: access)["cnf"] as? [String: String] == ["jkt": key.publicKey.thumbprint])
                let successor = try #require(bound.json["refresh_token"])
                let withoutKey = try await Self.post(client, Self.refreshFields(successor), key: nil, nonce: nil, clock: fixture.clock)
                #expect(withoutKey.json["error"] == "invalid_dpop_proof", "no longer a bearer grant")
            }
        }
    }

    @Test("a nonce lasts its window and the next; an older one is answered with the current nonce")
    func staleNoncesAreReplaced() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let key = SoftwareDPoPKey()
                let (_, refresh) = try await Self.boundGrant(fixture, client, key: key)
                let first = try await Self.post(client, Self.refreshFields(refresh), key: key, nonce: nil, clock: fixture.clock)
                let nonce = try #require(first.header("DPoP-Nonce"))

                fixture.clock.advance(by: .seconds(600))
                let stale = try await Self.post(client, Self.refreshFields(refresh), key: key, nonce: nonce, clock: fixture.clock)
                #expect(stale.json["error"] == "use_dpop_nonce")
                let fresh = try #require(stale.header("DPoP-Nonce"))
                #expect(fresh != nonce)

                fixture.clock.advance(by: .seconds(300))
                let stillGood = try await Self.post(client, Self.refreshFields(refresh), key: key, nonce: fresh, clock: fixture.clock)
                #expect(stillGood.status == 200, "the previous window's nonce is still accepted")
            }
        }
    }

    @Test("without a proof nothing changes: bearer grants, Bearer tokens, no cnf")
    func bearerGrantsAreUnchanged() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let granted = try await fixture.redeem(client, code: code, verifier: pkce.verifier)
                #expect(granted.json["token_type"] == "Bearer")
                let access = try #require(granted.json["access_token"])
                #expect(try Self.claims(of: access)["cnf"] == nil)
                #expect(try await client.get("v1/destinations", headers: ["Authorization": "Bearer \(access)"]).status == 200)
                let asDPoP = try await client.get("v1/destinations", headers: ["Authorization": "DPoP \(access)"])
                #expect(asDPoP.status == 401, "a bearer token is not presented as DPoP")
            }
        }
    }
}
