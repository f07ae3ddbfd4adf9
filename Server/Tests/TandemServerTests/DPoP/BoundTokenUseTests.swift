import Foundation
import SQLKit
import TandemProtocol
import TandemServerTestSupport
import TandemTestSupport
import Testing

@testable import TandemServer

/// Sender-constrained means constrained everywhere (the fourth security review): a bound token is
/// used only with its key — at the token exchange as at `/v1` — a bearer grant is bound only
/// where its app requires DPoP and never handed to whoever refreshes first, a spent token
/// without the key ends nothing, and a proof sent with a refused request writes nothing.
@Suite("Bound tokens used only with their key")
struct BoundTokenUseTests {
    typealias Binding = DPoPBindingTests

    /// The demo's audit lines of `kind`, oldest first.
    static func audit(_ kind: String, _ database: TestDatabase) async throws -> [AuditEvent] {
        try await database.withStorage { storage in
            try await storage.audit.auditEvents(clientID: OAuthFlowFixture.clientID, limit: 100).filter { $0.kind == kind }.reversed()
        }
    }

    /// How many DPoP proofs the database has recorded.
    static func recordedProofs(_ database: TestDatabase) async throws -> Int {
        try await database.withStorage { storage in
            try await storage.connector.withConnection { db in
                Int(try await db.raw("SELECT COUNT(*) AS n FROM dpop_proofs").first()?.decode(column: "n", as: Int64.self) ?? 0)
            }
        }
    }

    // MARK: - S4-01: the token exchange is a use of the subject token

    @Test("a stolen DPoP-bound access token is not exchanged without its key, and the widgets' grant lives on", arguments: TestBackend.allCases)
    func aStolenBoundTokenIsNotLaundered(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let hostKey = SoftwareDPoPKey()
                let widgetKey = SoftwareDPoPKey()
                let (access, _) = try await Binding.boundGrant(fixture, client, key: hostKey)
                let widgets = try await Binding.postLearningNonce(
                    client, Binding.exchangeFields(access), key: hostKey, clock: fixture.clock, accessToken: access, bindKey: widgetKey)
                let widgetsRefresh = try #require(widgets.json["refresh_token"])

                // The thief has the access token, not the host's key.
                let thief = SoftwareDPoPKey()
                let attempts: [(String, HTTPTestResponse)] = [
                    ("no proof", try await Binding.post(client, Binding.exchangeFields(access), key: nil, nonce: nil, clock: fixture.clock)),
                    ("the thief's own key", try await Binding.postLearningNonce(
                        client, Binding.exchangeFields(access), key: thief, clock: fixture.clock, accessToken: access)),
                    ("only a key to bind", try await Binding.postLearningNonce(
                        client, Binding.exchangeFields(access), key: nil, clock: fixture.clock, bindKey: thief)),
                    ("the thief's key, the thief's key to bind", try await Binding.postLearningNonce(
                        client, Binding.exchangeFields(access), key: thief, clock: fixture.clock, accessToken: access, bindKey: thief)),
                ]
                for (what, answer) in attempts {
                    #expect(answer.status == 400 && answer.json["error"] == "invalid_dpop_proof", "\(what): \(answer.status)")
                    #expect(answer.json["refresh_token"] == nil, "\(what)")
                }
                // A proof by the host's key that was not made for this token (no ath) is no use of it either.
                let withoutAth = try await Binding.postLearningNonce(client, Binding.exchangeFields(access), key: hostKey, clock: fixture.clock)
                #expect(withoutAth.json["error"] == "invalid_dpop_proof")

                // Nothing replaced the widgets' real grant.
                let stillLive = try await Binding.postLearningNonce(
                    client, Binding.refreshFields(widgetsRefresh), key: widgetKey, clock: fixture.clock)
                #expect(stillLive.status == 200, "\(String(decoding: stillLive.body, as: UTF8.self))")
                let refused = try await Self.audit("token.exchange-refused", database)
                #expect(!refused.isEmpty && refused.allSatisfy { $0.userID == fixture.userID })
                #expect(refused.count < attempts.count + 1, "sampled per app and address")
            }
        }
    }

    @Test("a bound parent never has an unbound child: the host's proof alone binds the child to the host's key")
    func aBoundParentNeverHasAnUnboundChild() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let hostKey = SoftwareDPoPKey()
                let (access, _) = try await Binding.boundGrant(fixture, client, key: hostKey)
                let child = try await Binding.postLearningNonce(
                    client, Binding.exchangeFields(access), key: hostKey, clock: fixture.clock, accessToken: access)
                #expect(child.status == 200 && child.json["token_type"] == "DPoP")
                let token = try #require(child.json["access_token"])
                #expect(try Binding.claims(of: token)["cnf"] as? [String: String] == ["jkt": hostKey.publicKey.thumbprint])
            }
        }
    }

    // MARK: - S4-02: binding a bearer grant

    @Test("where the app does not require DPoP, a proof leaves a bearer grant bearer: a thief's key does not take it")
    func aProofDoesNotBindABearerGrantOfAnAppWithoutDPoP() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let refresh = try #require(try await fixture.redeem(client, code: code, verifier: pkce.verifier).json["refresh_token"])
                let byThief = try await Binding.postLearningNonce(client, Binding.refreshFields(refresh), key: SoftwareDPoPKey(), clock: fixture.clock)
                #expect(byThief.status == 200 && byThief.json["token_type"] == "Bearer")
                #expect(try Binding.claims(of: try #require(byThief.json["access_token"]))["cnf"] == nil)
                let successor = try #require(byThief.json["refresh_token"])
                let byOwner = try await fixture.refresh(client, successor)
                #expect(byOwner.status == 200, "still a bearer grant: \(String(decoding: byOwner.body, as: UTF8.self))")
            }
        }
    }

    @Test(
        "where the app requires DPoP, a token from before the binding presented again is reuse: the grant is revoked and audited",
        arguments: [true, false])
    func aTokenFromBeforeTheBindingIsReuse(ownerSendsAProof: Bool) async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (pkce, code) = try await fixture.signedInCode(BrowserTestClient(client))
                let stolen = try #require(try await fixture.redeem(client, code: code, verifier: pkce.verifier).json["refresh_token"])
                try await database.withStorage { storage in
                    _ = try await storage.apps.setDPoPRequired(clientID: OAuthFlowFixture.clientID, required: true)
                }
                fixture.clock.advance(by: .seconds(2))

                // The thief refreshes first and binds the grant to their key…
                let thief = SoftwareDPoPKey()
                let taken = try await Binding.postLearningNonce(client, Binding.refreshFields(stolen), key: thief, clock: fixture.clock)
                #expect(taken.status == 200 && taken.json["token_type"] == "DPoP")
                let thiefsToken = try #require(taken.json["refresh_token"])

                // …then the owner presents the same token: that is reuse, whatever key comes with it.
                fixture.clock.advance(by: .seconds(1))
                let owner = try await Binding.postLearningNonce(
                    client, Binding.refreshFields(stolen), key: ownerSendsAProof ? SoftwareDPoPKey() : nil, clock: fixture.clock)
                #expect(owner.status == 400 && owner.json["error"] == "invalid_grant", "\(String(decoding: owner.body, as: UTF8.self))")
                let thiefAgain = try await Binding.postLearningNonce(client, Binding.refreshFields(thiefsToken), key: thief, clock: fixture.clock)
                #expect(thiefAgain.json["error"] == "invalid_grant", "the thief's grant is revoked too")
                let reuse = try await Self.audit("token.reuse", database)
                #expect(reuse.count == 1 && reuse.first?.detail.contains("before the grant was bound") == true)
            }
        }
    }

    // MARK: - S4-07: revocation of a bound grant

    @Test("a spent refresh token or an access token without the key ends no bound grant; the current token or the key does")
    func revokingABoundGrantNeedsItsKeyOrItsCurrentToken() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let key = SoftwareDPoPKey()
                let (access, spent) = try await Binding.boundGrant(fixture, client, key: key)
                let rotated = try await Binding.postLearningNonce(client, Binding.refreshFields(spent), key: key, clock: fixture.clock)
                let current = try #require(rotated.json["refresh_token"])
                fixture.clock.advance(by: .seconds(120))

                for token in [spent, access] {
                    let revoke = try await client.postForm("oauth/revoke", [("token", token), ("client_id", OAuthFlowFixture.clientID)])
                    #expect(revoke.status == 200)
                }
                let alive = try await Binding.postLearningNonce(client, Binding.refreshFields(current), key: key, clock: fixture.clock)
                #expect(alive.status == 200, "the owner's grant lives on: \(String(decoding: alive.body, as: UTF8.self))")
                let latest = try #require(alive.json["refresh_token"])

                #expect(try await client.postForm("oauth/revoke", [("token", latest), ("client_id", OAuthFlowFixture.clientID)]).status == 200)
                let ended = try await Binding.postLearningNonce(client, Binding.refreshFields(latest), key: key, clock: fixture.clock)
                #expect(ended.json["error"] == "invalid_grant", "the current refresh token ends it")

                // With a proof by the key, an access token ends its grant too.
                let (otherAccess, otherRefresh) = try await Binding.boundGrant(fixture, client, key: key)
                let proof = try DPoPProof.make(
                    signer: key, method: "POST", url: URL(string: InProcessServer.issuer + "/oauth/revoke")!, issuedAt: fixture.clock.now)
                #expect(try await client.postForm(
                    "oauth/revoke", [("token", otherAccess), ("client_id", OAuthFlowFixture.clientID)], headers: ["DPoP": proof]).status == 200)
                let endedByKey = try await Binding.postLearningNonce(client, Binding.refreshFields(otherRefresh), key: key, clock: fixture.clock)
                #expect(endedByKey.json["error"] == "invalid_grant")
            }
        }
    }

    // MARK: - S4-10: what an anonymous proof writes

    @Test("a proof with a refused request (token endpoint or /v1) records nothing; one with a granted request is recorded once", arguments: TestBackend.allCases)
    func onlyGrantedRequestsRecordTheirProofs(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let key = SoftwareDPoPKey()
                let (access, refresh) = try await Binding.boundGrant(fixture, client, key: key)
                let before = try await Self.recordedProofs(database)
                let unknownRefresh = Binding.refreshFields("tdr_" + String(repeating: "A", count: 43))
                let unknownCode = Binding.codeFields("tdc_" + String(repeating: "A", count: 43), verifier: String(repeating: "v", count: 43))
                for _ in 0..<20 {
                    #expect(try await Binding.postLearningNonce(client, unknownRefresh, key: SoftwareDPoPKey(), clock: fixture.clock).status == 400)
                    #expect(try await Binding.postLearningNonce(client, unknownCode, key: SoftwareDPoPKey(), clock: fixture.clock).status == 400)
                    #expect(try await Binding.postLearningNonce(client, Binding.refreshFields(refresh), key: SoftwareDPoPKey(), clock: fixture.clock).status == 400)
                    #expect(try await Binding.postLearningNonce(
                        client, Binding.exchangeFields(access), key: SoftwareDPoPKey(), clock: fixture.clock, accessToken: access).status == 400)
                    // The stolen access token at /v1, with a proof by the thief's key for it.
                    let thiefsProof = try DPoPProof.make(
                        signer: SoftwareDPoPKey(), method: "GET", url: URL(string: InProcessServer.issuer + "/v1/destinations")!,
                        issuedAt: fixture.clock.now, accessToken: access)
                    #expect(try await client.get("v1/destinations", headers: ["Authorization": "DPoP \(access)", "DPoP": thiefsProof]).status == 401)
                }
                #expect(try await Self.recordedProofs(database) == before, "refused requests write no proof")

                let granted = try await Binding.postLearningNonce(client, Binding.refreshFields(refresh), key: key, clock: fixture.clock)
                #expect(granted.status == 200)
                #expect(try await Self.recordedProofs(database) == before + 1)
            }
        }
    }

    @Test("a proof replayed with a granted refresh undoes nothing of the first and rotates nothing the second time")
    func aReplayedProofRotatesNothing() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let key = SoftwareDPoPKey()
                let (_, refresh) = try await Binding.boundGrant(fixture, client, key: key)
                let nonce = try #require(try await Binding.post(client, Binding.refreshFields(refresh), key: key, nonce: nil, clock: fixture.clock)
                    .header("DPoP-Nonce"))
                let proof = try DPoPProof.make(signer: key, method: "POST", url: Binding.tokenURL, issuedAt: fixture.clock.now, nonce: nonce)
                let first = try await client.postForm("oauth/token", Binding.refreshFields(refresh), headers: ["DPoP": proof])
                #expect(first.status == 200)
                let successor = try #require(first.json["refresh_token"])
                let replay = try await client.postForm("oauth/token", Binding.refreshFields(successor), headers: ["DPoP": proof])
                #expect(replay.json["error"] == "invalid_dpop_proof")
                let next = try await Binding.postLearningNonce(client, Binding.refreshFields(successor), key: key, clock: fixture.clock)
                #expect(next.status == 200, "the replay left the successor unspent")
            }
        }
    }
}
