import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// Step-up: an approval above its set's threshold needs a proof, for this very request, by the
/// step-up key enrolled for the host's sign-in, at most a minute old on the server's clock; one
/// key per sign-in, proven by a signature of its own.
@Suite("Step-up for item actions")
struct StepUpTests {
    @Test("above the threshold: no proof is 401 insufficient_user_authentication, a valid proof decides", arguments: TestBackend.allCases)
    func aHighValueApprovalNeedsAValidProof(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            let (token, _) = try await fixture.signIn()
            let key = SoftwareDPoPKey()
            #expect(try await Self.register(key, token: token, fixture).status == 200)
            let etag = try await fixture.item(ActionFixture.highValue).etag
            let idempotencyKey = ActionFixture.newKey()

            let bare = try await fixture.act(.approve, on: ActionFixture.highValue, token: token, key: idempotencyKey, ifMatch: etag)
            #expect(bare.status == 401 && bare.json["error"] == ItemActionRules.stepUpRequiredError)
            #expect(bare.header("WWW-Authenticate")?.contains(#"error="insufficient_user_authentication""#) == true)
            #expect(try await fixture.item(ActionFixture.highValue).status == "pending")

            // The refusal is not kept: the same key, now with a proof, decides.
            let proof = try StepUpProof.make(
                signer: key, url: ActionFixture.url(ActionFixture.highValue, .approve), action: .approve, ifMatch: etag,
                idempotencyKey: idempotencyKey, issuedAt: fixture.demo.clock.now)
            let proven = try await fixture.act(
                .approve, on: ActionFixture.highValue, token: token, key: idempotencyKey, ifMatch: etag,
                extra: [ItemActionRules.stepUpHeader: proof])
            #expect(proven.status == 200, "\(String(decoding: proven.body, as: UTF8.self))")
            #expect(try await fixture.item(ActionFixture.highValue).status == "approved")

            // The proof's jti is the key: sent again it only replays the answer.
            let replay = try await fixture.act(
                .approve, on: ActionFixture.highValue, token: token, key: idempotencyKey, ifMatch: etag,
                extra: [ItemActionRules.stepUpHeader: proof])
            #expect(replay.status == 200 && replay.header(ItemActionRules.replayedHeader) == "true" && replay.body == proven.body)
            let kinds = try await fixture.auditLines().map(\.kind)
            #expect(kinds == ["stepup.enrolled", "action.refused", "action.approved"])
        }
    }

    @Test("a proof for another item, action, ETag or key, too old, from the future or by an unregistered key is 401")
    func aProofForAnotherRequestIsRefused() async throws {
        try await ActionFixture.withServer(.sqlite) { fixture in
            let (token, _) = try await fixture.signIn()
            let key = SoftwareDPoPKey()
            #expect(try await Self.register(key, token: token, fixture).status == 200)
            let item = ActionFixture.highValue
            let etag = try await fixture.item(item).etag
            let otherETag = try await fixture.item("PR-1004").etag
            let now = fixture.demo.clock.now
            let idempotencyKey = ActionFixture.newKey()
            let url = ActionFixture.url(item, .approve)
            let proofs: [(String, String)] = [
                ("another item", try StepUpProof.make(
                    signer: key, url: ActionFixture.url("PR-1004", .approve), action: .approve, ifMatch: etag, idempotencyKey: idempotencyKey, issuedAt: now)),
                ("another action", try StepUpProof.make(
                    signer: key, url: url, action: .reject, ifMatch: etag, idempotencyKey: idempotencyKey, issuedAt: now)),
                ("another ETag", try StepUpProof.make(
                    signer: key, url: url, action: .approve, ifMatch: otherETag, idempotencyKey: idempotencyKey, issuedAt: now)),
                ("another key", try StepUpProof.make(
                    signer: key, url: url, action: .approve, ifMatch: etag, idempotencyKey: ActionFixture.newKey(), issuedAt: now)),
                ("too old", try StepUpProof.make(
                    signer: key, url: url, action: .approve, ifMatch: etag, idempotencyKey: idempotencyKey, issuedAt: now.addingTimeInterval(-61))),
                ("from the future", try StepUpProof.make(
                    signer: key, url: url, action: .approve, ifMatch: etag, idempotencyKey: idempotencyKey, issuedAt: now.addingTimeInterval(120))),
                ("an unregistered key", try StepUpProof.make(
                    signer: SoftwareDPoPKey(), url: url, action: .approve, ifMatch: etag, idempotencyKey: idempotencyKey, issuedAt: now)),
                ("garbage", "a.b.c"),
            ]
            for (what, proof) in proofs {
                let answer = try await fixture.act(
                    .approve, on: item, token: token, key: idempotencyKey, ifMatch: etag, extra: [ItemActionRules.stepUpHeader: proof])
                #expect(answer.status == 401 && answer.json["error"] == ItemActionRules.stepUpRequiredError, "\(what)")
            }
            // A proof made now is good for a minute of the server's clock, not more.
            let timely = try StepUpProof.make(signer: key, url: url, action: .approve, ifMatch: etag, idempotencyKey: idempotencyKey, issuedAt: now)
            fixture.demo.clock.advance(by: .seconds(61))
            let late = try await fixture.act(.approve, on: item, token: token, key: idempotencyKey, ifMatch: etag, extra: [ItemActionRules.stepUpHeader: timely])
            #expect(late.status == 401)
            #expect(try await fixture.item(item).status == "pending")

            // Another sign-in of the same user has no key registered: the first one's key is not its.
            let (other, _) = try await fixture.signIn()
            let fresh = try StepUpProof.make(
                signer: key, url: url, action: .approve, ifMatch: etag, idempotencyKey: idempotencyKey, issuedAt: fixture.demo.clock.now)
            #expect(try await fixture.act(.approve, on: item, token: other, key: idempotencyKey, ifMatch: etag, extra: [ItemActionRules.stepUpHeader: fresh]).status == 401)
            #expect(try await fixture.act(.approve, on: item, token: token, key: idempotencyKey, ifMatch: etag, extra: [ItemActionRules.stepUpHeader: fresh]).status == 200)
        }
    }

    @Test("the set's policy moves the threshold (and the app's configuration says so); an item without a readable amount always steps up")
    func theSetsPolicyDecides() async throws {
        try await ActionFixture.withServer(.sqlite) { fixture in
            let (token, _) = try await fixture.signIn()
            try await fixture.database.withStorage { storage in
                var approvals = ServerAdministration.demoApprovals
                approvals.stepUp = ActionPolicyDocument(stepUpAbove: 100_000)
                try await ServerAdministration(database: storage, clock: fixture.demo.clock).setActionable(approvals)
            }
            let configuration = try await fixture.client.get("v1/apps/\(ServerAdministration.demoClientID)/configuration")
            let document = try JSONDecoder().decode(AppConfigurationDocument.self, from: configuration.body)
            #expect(document.actionPolicy == ActionPolicyDocument(stepUpAbove: 100_000))
            let etag = try await fixture.item(ActionFixture.highValue).etag
            #expect(try await fixture.act(.reject, on: ActionFixture.highValue, token: token, key: ActionFixture.newKey(), ifMatch: etag).status == 200)

            try await fixture.database.withStorage { storage in
                _ = try await storage.businessData.replaceEntitySet(
                    destination: "sales", title: "Sales (demo)", name: DemoBusinessData.approvals,
                    rows: [#"{"ApprovalID":"PR-1","Amount":"a lot"}"#], now: Timestamp(fixture.demo.clock.now))
            }
            let unreadable = try await fixture.item("PR-1")
            #expect(unreadable.status == "pending", "the server gives a row without a status the pending one")
            #expect(try await fixture.act(.approve, on: "PR-1", token: token, key: ActionFixture.newKey(), ifMatch: unreadable.etag).status == 401)
        }
    }

    @Test("a sign-in registers one step-up key: the same again is 200, another is 409, a new sign-in may register its own", arguments: TestBackend.allCases)
    func oneKeyPerSignIn(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            let (token, _) = try await fixture.signIn()
            let key = SoftwareDPoPKey()
            let first = try await Self.register(key, token: token, fixture)
            #expect(first.status == 200 && first.json["jkt"] == key.publicKey.thumbprint)
            #expect(try await Self.register(key, token: token, fixture).status == 200)
            let other = try await Self.register(SoftwareDPoPKey(), token: token, fixture)
            #expect(other.status == 409 && other.json["error"] == "step_up_key_conflict")
            let (newSignIn, _) = try await fixture.signIn()
            #expect(try await Self.register(SoftwareDPoPKey(), token: newSignIn, fixture).status == 200)

            let widgets = try await fixture.widgetsToken(exchanging: token)
            #expect(try await Self.register(SoftwareDPoPKey(), token: widgets, fixture).status == 403)
            let bad = try await fixture.client.put(
                APIPath.stepUpKey, body: Data(#"{"jwk":{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA"}}"#.utf8),
                headers: ["Authorization": "Bearer \(token)"])
            #expect(bad.status == 400)
            let withPrivate = try await fixture.client.put(
                APIPath.stepUpKey, body: Data(#"{"jwk":{"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA","d":"AAAA"}}"#.utf8),
                headers: ["Authorization": "Bearer \(token)"])
            #expect(withPrivate.status == 400)
            let kinds = try await fixture.auditLines().map(\.kind)
            #expect(kinds == ["stepup.enrolled", "stepup.refused", "stepup.enrolled", "action.refused"])
        }
    }

    /// `PUT /v1/step-up-key` with an enrolment `key` signed for that URL.
    static func register(_ key: SoftwareDPoPKey, token: String, _ fixture: ActionFixture) async throws -> HTTPTestResponse {
        let enrolment = try StepUpKeyEnrolment.make(
            signer: key, url: APIPath.absolute(APIPath.stepUpKey, issuer: InProcessServer.issuer), issuedAt: fixture.demo.clock.now)
        return try await fixture.client.put(
            APIPath.stepUpKey, body: try JSONEncoder().encode(StepUpKeyDocument(enrolment: enrolment)),
            headers: ["Authorization": "Bearer \(token)"])
    }
}
