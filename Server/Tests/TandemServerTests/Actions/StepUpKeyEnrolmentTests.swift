import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// Step-up keys are enrolled with the sign-in, proven by a signature of their own (S4-04): the
/// code exchange carries the enrolment; a later one needs a fresh sign-in; a key that signs
/// without the user (the grant's DPoP key, the widgets' key) never stands for their presence.
@Suite("Step-up key enrolment")
struct StepUpKeyEnrolmentTests {
    typealias Binding = DPoPBindingTests

    /// The code grant's fields with an enrolment of `key` made for `url` at `issuedAt`.
    static func codeFields(
        _ code: String, verifier: String, enrolling key: SoftwareDPoPKey, url: String = InProcessServer.issuer + "/oauth/token",
        issuedAt: Date
    ) throws -> [(String, String)] {
        Binding.codeFields(code, verifier: verifier)
            + [(StepUpKeyEnrolment.parameterName, try StepUpKeyEnrolment.make(signer: key, url: url, issuedAt: issuedAt))]
    }

    /// Signs in to the fixture's app with the `actions` scope and returns the code and its verifier.
    static func code(_ fixture: OAuthFlowFixture, _ client: InProcessClient) async throws -> (code: String, verifier: String) {
        let pkce = OAuthFlowFixture.pkce()
        let signIn = try await fixture.signIn(
            BrowserTestClient(client), challenge: pkce.challenge, overrides: ["scope": OAuthScope.userGrantable])
        let code = try #require(BrowserTestClient.query(of: signIn.location ?? "")["code"])
        return (code, pkce.verifier)
    }

    /// `PUT /v1/step-up-key` enrolling `key` with `token`.
    static func enrol(_ key: SoftwareDPoPKey, token: String, client: InProcessClient, now: Date) async throws -> HTTPTestResponse {
        let enrolment = try StepUpKeyEnrolment.make(
            signer: key, url: APIPath.absolute(APIPath.stepUpKey, issuer: InProcessServer.issuer), issuedAt: now)
        return try await client.put(
            APIPath.stepUpKey, body: try JSONEncoder().encode(StepUpKeyDocument(enrolment: enrolment)), headers: ["Authorization": "Bearer \(token)"])
    }

    @Test("the code exchange enrols the step-up key it carries, for that sign-in only", arguments: TestBackend.allCases)
    func theSignInEnrolsItsKey(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let key = SoftwareDPoPKey()
                let (code, verifier) = try await Self.code(fixture, client)
                let granted = try await client.postForm(
                    "oauth/token", try Self.codeFields(code, verifier: verifier, enrolling: key, issuedAt: fixture.clock.now))
                #expect(granted.status == 200, "\(String(decoding: granted.body, as: UTF8.self))")

                // Long after the sign-in: the same key is already its own, another is refused.
                fixture.clock.advance(by: .seconds(3600))
                let same = try await Self.enrol(key, token: try #require(try await Self.freshToken(fixture, client, granted)), client: client, now: fixture.clock.now)
                #expect(same.status == 200 && same.json["jkt"] == key.publicKey.thumbprint)
                let enrolled = try await database.withStorage { storage in
                    try await storage.audit.auditEvents(clientID: OAuthFlowFixture.clientID, limit: 20).filter { $0.kind == "stepup.enrolled" }
                }
                #expect(enrolled.count == 1 && enrolled.first?.userID == fixture.userID && enrolled.first?.detail.contains("with the sign-in") == true)
            }
        }
    }

    @Test("an enrolment not signed by its key, made for another endpoint or long ago is refused, and the code stays good")
    func aBadEnrolmentIsRefused() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let (code, verifier) = try await Self.code(fixture, client)
                let key = SoftwareDPoPKey()
                let now = fixture.clock.now
                let forged = try StepUpKeyEnrolment.make(signer: key, url: InProcessServer.issuer + "/oauth/token", issuedAt: now)
                let parts = forged.split(separator: ".")
                let otherSignature = try StepUpKeyEnrolment.make(signer: SoftwareDPoPKey(), url: InProcessServer.issuer + "/oauth/token", issuedAt: now)
                    .split(separator: ".")[2]
                let bad: [(String, String)] = [
                    ("another key's signature", "\(parts[0]).\(parts[1]).\(otherSignature)"),
                    ("another endpoint", try StepUpKeyEnrolment.make(signer: key, url: InProcessServer.issuer + "/v1/step-up-key", issuedAt: now)),
                    ("long ago", try StepUpKeyEnrolment.make(signer: key, url: InProcessServer.issuer + "/oauth/token", issuedAt: now.addingTimeInterval(-3600))),
                    ("a DPoP proof", try DPoPProof.make(signer: key, method: "POST", url: Binding.tokenURL, issuedAt: now)),
                ]
                for (what, enrolment) in bad {
                    let answer = try await client.postForm(
                        "oauth/token", Binding.codeFields(code, verifier: verifier) + [(StepUpKeyEnrolment.parameterName, enrolment)])
                    #expect(answer.status == 400 && answer.json["error"] == "invalid_request", "\(what)")
                }
                #expect(try await fixture.redeem(client, code: code, verifier: verifier).status == 200, "the refusals left the code unspent")
            }
        }
    }

    @Test("the grant's DPoP key is never its step-up key, nor is the widgets' key")
    func keysThatSignWithoutTheUserAreRefused() async throws {
        try await TestBackend.sqlite.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)
            try await fixture.test { client in
                let hostKey = SoftwareDPoPKey()
                let (code, verifier) = try await Self.code(fixture, client)
                let asDPoPKey = try await Binding.postLearningNonce(
                    client, try Self.codeFields(code, verifier: verifier, enrolling: hostKey, issuedAt: fixture.clock.now), key: hostKey,
                    clock: fixture.clock)
                #expect(asDPoPKey.status == 400 && asDPoPKey.json["error"] == "invalid_request")

                // Enrolled with the sign-in, a step-up key cannot become the widgets' key either.
                let stepUpKey = SoftwareDPoPKey()
                let bound = try await Binding.postLearningNonce(
                    client, try Self.codeFields(code, verifier: verifier, enrolling: stepUpKey, issuedAt: fixture.clock.now), key: hostKey,
                    clock: fixture.clock)
                #expect(bound.status == 200, "\(String(decoding: bound.body, as: UTF8.self))")
                let access = try #require(bound.json["access_token"])
                let exchange = try await Binding.postLearningNonce(
                    client, Binding.exchangeFields(access), key: hostKey, clock: fixture.clock, accessToken: access, bindKey: stepUpKey)
                #expect(exchange.status == 400 && exchange.json["error"] == "invalid_request")
            }
        }
    }

    @Test("a sign-in without a key enrols one through PUT only while it is fresh; later only a new sign-in does")
    func aLaterEnrolmentNeedsAFreshSignIn() async throws {
        try await ActionFixture.withServer(.sqlite) { fixture in
            let (_, refresh) = try await fixture.signIn()
            fixture.demo.clock.advance(by: .seconds(301))
            // A token of the same sign-in, minted now: the sign-in itself is what is old.
            let renewed = try await fixture.client.postForm("oauth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", ServerAdministration.demoClientID),
            ])
            let token = try #require(renewed.json["access_token"])
            let late = try await Self.enrol(SoftwareDPoPKey(), token: token, client: fixture.client, now: fixture.demo.clock.now)
            #expect(late.status == 401 && late.json["error"] == "insufficient_user_authentication")
            #expect(late.header("WWW-Authenticate")?.contains("max_age=300") == true)

            let (fresh, _) = try await fixture.signIn()
            #expect(try await Self.enrol(SoftwareDPoPKey(), token: fresh, client: fixture.client, now: fixture.demo.clock.now).status == 200)
        }
    }

    /// A new access token of the grant `granted` answered (its refresh token redeemed now).
    static func freshToken(_ fixture: OAuthFlowFixture, _ client: InProcessClient, _ granted: HTTPTestResponse) async throws -> String? {
        try await fixture.refresh(client, try #require(granted.json["refresh_token"])).json["access_token"]
    }
}
