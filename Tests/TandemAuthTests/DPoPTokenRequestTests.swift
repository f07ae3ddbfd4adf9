import Foundation
import TandemPlatform
import TandemProtocol
import TandemTestSupport
import Testing

@testable import TandemAuth

/// Token requests with DPoP (RFC 9449): each carries a proof the server's own parser accepts,
/// dated by the client's clock and signed by the key of the grant it is for; the server's nonce
/// is retried once and then remembered; without a key and without the requirement, nothing
/// changes.
@Suite("DPoP token requests")
struct DPoPTokenRequestTests {
    let clock = ManualClock()
    let hostKey = SoftwareDPoPKey()
    let widgetsKey = SoftwareDPoPKey()
    let server: FakeDPoPServer

    init() {
        server = FakeDPoPServer(clock: clock)
    }

    func client(_ transport: FakeTransport, dpopKey: (any DPoPKeyProvider)?, required: Bool = false) -> OAuthClient {
        var configuration = FakeAuthorizationServer.configuration
        configuration.dpopRequired = required
        return OAuthClient(configuration: configuration, client: HTTPClient(transport: transport), clock: clock, dpopKey: dpopKey)
    }

    func signIn(_ oauth: OAuthClient) async throws -> TokenSet {
        let pending = try await oauth.startAuthorization()
        return try await oauth.exchangeCode("c1", for: pending)
    }

    func tokenRequests(_ transport: FakeTransport) -> [HTTPRequest] {
        transport.requests.filter { $0.url.path == "/oauth/token" }
    }

    // MARK: - Proofs

    @Test func aTokenRequestCarriesAProofTheServerAcceptsDatedByTheClientsClock() async throws {
        let transport = server.transport()
        let tokens = try await signIn(client(transport, dpopKey: hostKey))
        let header = try #require(tokenRequests(transport).last?.headers[DPoPProof.headerName])
        let proof = try DPoPProof(parsing: header)
        try proof.check(method: "POST", url: FakeDPoPServer.tokenURL, now: clock.now)
        #expect(proof.issuedAt == clock.now, "iat is the injected clock's time, not the machine's")
        #expect(proof.publicKey.thumbprint == hostKey.publicKey.thumbprint)
        #expect(proof.accessTokenHash == nil, "no ath at the token endpoint")
        #expect(tokens.isDPoPBound)
        #expect(tokens.tokenType == "DPoP")
    }

    @Test func useDPoPNonceIsRetriedOnceWithTheServersNonce() async throws {
        let transport = server.transport()
        let oauth = client(transport, dpopKey: hostKey)
        _ = try await signIn(oauth)
        let sent = try tokenRequests(transport).map { try DPoPProof(parsing: try #require($0.headers[DPoPProof.headerName])) }
        #expect(sent.count == 2)
        #expect(sent.map(\.nonce) == [nil, "nonce-1"])
        #expect(sent[0].jti != sent[1].jti, "the retry is a new proof")
        #expect(FakeTransport.form(tokenRequests(transport)[0]) == FakeTransport.form(tokenRequests(transport)[1]))
        #expect(oauth.lastDPoPNonce == "nonce-1")
    }

    @Test func aSecondUseDPoPNonceIsAnErrorNotALoop() async throws {
        server.state.withLock { $0.rotatesNonceAfterAsking = true }
        let transport = server.transport()
        let oauth = client(transport, dpopKey: hostKey)
        await #expect(throws: AuthError.server(status: 400, code: "use_dpop_nonce", description: "use the server's nonce")) {
            try await signIn(oauth)
        }
        #expect(tokenRequests(transport).count == 2)
        #expect(oauth.lastDPoPNonce == "nonce-2", "the nonce of the last answer is kept for the next request")
    }

    @Test func theNextRequestReusesTheRememberedNonce() async throws {
        let transport = server.transport()
        let oauth = client(transport, dpopKey: hostKey)
        let tokens = try await signIn(oauth)
        clock.advance(by: .seconds(90))
        let refreshed = try await oauth.refresh(tokens)
        let requests = tokenRequests(transport)
        #expect(requests.count == 3, "the refresh needed no nonce round trip")
        let proof = try DPoPProof(parsing: try #require(requests.last?.headers[DPoPProof.headerName]))
        #expect(proof.nonce == "nonce-1")
        #expect(proof.issuedAt == clock.now)
        #expect(refreshed.isDPoPBound)
        #expect(server.redemptions == 1)
    }

    @Test func aChangedNonceIsPickedUpFromTheRefusal() async throws {
        let transport = server.transport()
        let oauth = client(transport, dpopKey: hostKey)
        let tokens = try await signIn(oauth)
        server.state.withLock { $0.nonce = "nonce-later" }
        _ = try await oauth.refresh(tokens)
        let nonces = try tokenRequests(transport).map { try DPoPProof(parsing: try #require($0.headers[DPoPProof.headerName])).nonce }
        #expect(nonces == [nil, "nonce-1", "nonce-1", "nonce-later"])
        #expect(server.redemptions == 1, "the refused proof spent nothing")
    }

    // MARK: - Which key signs what

    @Test func theExchangeProvesTheHostsKeyForItsTokenAndBindsTheWidgetsKey() async throws {
        let transport = server.transport()
        let oauth = client(transport, dpopKey: hostKey)
        let user = try await signIn(oauth)
        let grant = try await oauth.exchangeForExtensionGrant(accessToken: user.accessToken, subjectTokenIsBound: user.isDPoPBound, dpopKey: widgetsKey)
        let use = try #require(server.proofs.last)
        #expect(use.publicKey.thumbprint == hostKey.publicKey.thumbprint && use.accessTokenHash == DPoPProof.accessTokenHash(user.accessToken))
        #expect(server.bindProofs.last?.publicKey.thumbprint == widgetsKey.publicKey.thumbprint)
        #expect(server.bindProofs.last?.accessTokenHash == nil)
        #expect(grant.isDPoPBound)
        #expect(FakeTransport.form(try #require(tokenRequests(transport).last))["grant_type"] == GrantType.tokenExchange.rawValue)

        _ = try await oauth.refresh(user)
        #expect(server.proofs.last?.publicKey.thumbprint == hostKey.publicKey.thumbprint)

        // The widgets' grant refreshes with the widgets' key, never the host's: the server
        // refuses the host's and the refresh token stays unspent.
        await #expect(throws: AuthError.server(status: 400, code: "invalid_dpop_proof", description: "another key")) {
            try await oauth.refresh(grant)
        }
        let widgetsGrant = try await oauth.refresh(grant, dpopKey: widgetsKey)
        #expect(widgetsGrant.isDPoPBound)
        #expect(server.proofs.last?.publicKey.thumbprint == widgetsKey.publicKey.thumbprint)
    }

    @Test func anSSORedemptionIsSignedByTheClientsKey() async throws {
        let transport = server.transport()
        let grant = try await client(transport, dpopKey: hostKey).redeemSSOPasscode("passcode", deviceLabel: "phone")
        #expect(grant.tokens.isDPoPBound)
        #expect(server.proofs.map(\.publicKey.thumbprint) == [hostKey.publicKey.thumbprint, hostKey.publicKey.thumbprint])
        #expect(FakeTransport.form(try #require(tokenRequests(transport).last))["grant_type"] == GrantType.ssoPasscode.rawValue)
    }

    @Test func aSecondProcessRedeemingTheSameBoundTokenGetsTheSameSuccessor() async throws {
        // The holder of an expired lease and the process that broke it both redeem: each with its
        // own client (and nonce memory), both with the grant's key.
        let transport = server.transport()
        let grant = server.issue(boundTo: widgetsKey, expiresAt: clock.now)
        let first = try await client(transport, dpopKey: nil).refresh(grant, dpopKey: widgetsKey)
        let second = try await client(transport, dpopKey: nil).refresh(grant, dpopKey: widgetsKey)
        #expect(first == second)
        #expect(second.isDPoPBound)
        #expect(server.redemptions == 1)
        #expect(Set(server.proofs.map(\.publicKey.thumbprint)) == [widgetsKey.publicKey.thumbprint])
    }

    @Test func anExchangeWithoutTheWidgetsKeyIsBearerOnlyForABearerUserAndRefusedWhereDPoPIsRequired() async throws {
        let transport = server.transport()
        let bearerUser = try await signIn(client(transport, dpopKey: nil))
        let bearer = try await client(transport, dpopKey: hostKey).exchangeForExtensionGrant(accessToken: bearerUser.accessToken)
        #expect(!bearer.isDPoPBound)
        #expect(tokenRequests(transport).last?.headers[DPoPProof.headerName] == nil, "a bearer token's use needs no proof")

        // A bound user's token is used with the host's key, and its child is never unbound.
        let user = try await signIn(client(transport, dpopKey: hostKey))
        let child = try await client(transport, dpopKey: hostKey).exchangeForExtensionGrant(accessToken: user.accessToken, subjectTokenIsBound: true)
        #expect(child.isDPoPBound)
        let before = transport.requests.count
        await #expect(throws: AuthError.dpopKey("the grant needs a DPoP proof, and no DPoP key was given for it")) {
            try await client(transport, dpopKey: hostKey, required: true).exchangeForExtensionGrant(accessToken: user.accessToken)
        }
        #expect(transport.requests.count == before, "nothing was sent")
    }

    @Test func aBoundGrantIsRevokedWithAProofByItsKeyAndABearerOneWithout() async throws {
        let transport = server.transport()
        let bound = try await signIn(client(transport, dpopKey: hostKey))
        try await client(transport, dpopKey: hostKey).revoke(bound)
        let revocation = try #require(transport.requests.last { $0.url.path == "/oauth/revoke" })
        let proof = try DPoPProof(parsing: try #require(revocation.headers[DPoPProof.headerName]))
        #expect(proof.publicKey.thumbprint == hostKey.publicKey.thumbprint && proof.method == "POST")
        try proof.check(method: "POST", url: "https://auth.test/oauth/revoke", now: clock.now)

        let bearer = try await signIn(client(transport, dpopKey: nil))
        try await client(transport, dpopKey: hostKey).revoke(bearer)
        #expect(transport.requests.last { $0.url.path == "/oauth/revoke" }?.headers[DPoPProof.headerName] == nil)
    }

    // MARK: - Without DPoP

    @Test func withoutAKeyOrTheRequirementRequestsAreAsBefore() async throws {
        let transport = server.transport()
        let oauth = client(transport, dpopKey: nil)
        let tokens = try await signIn(oauth)
        _ = try await oauth.refresh(tokens)
        _ = try await oauth.exchangeForExtensionGrant(accessToken: tokens.accessToken)
        for request in tokenRequests(transport) {
            #expect(request.headers.map(\.name) == ["Content-Type", "Accept"])
        }
        #expect(tokenRequests(transport).count == 3, "no nonce round trip")
        #expect(!tokens.isDPoPBound)
        #expect(tokens.tokenType == "Bearer")
    }

    @Test func aBearerGrantIsRefreshedWithoutAProofEvenWithAKey() async throws {
        let transport = server.transport()
        let bearer = server.issue(boundTo: nil, expiresAt: clock.now)
        let refreshed = try await client(transport, dpopKey: hostKey).refresh(bearer)
        #expect(!refreshed.isDPoPBound)
        #expect(tokenRequests(transport).last?.headers[DPoPProof.headerName] == nil)
    }

    @Test func aDPoPAnswerToARequestWithoutAProofIsMalformed() async throws {
        let transport = FakeTransport { request throws(AuthError) in
            guard request.url.path == "/oauth/token" else { return FakeAuthorizationServer().answer(request) }
            return FakeAuthorizationServer.json(200, #"{"access_token":"at","token_type":"DPoP","expires_in":300}"#)
        }
        await #expect(throws: AuthError.malformedResponse("token_type DPoP is not Bearer")) {
            try await signIn(client(transport, dpopKey: nil))
        }
    }

    // MARK: - Missing or bad keys

    @Test func aBoundGrantWithoutItsKeyIsATypedErrorAndNothingIsSent() async throws {
        let transport = server.transport()
        let bound = server.issue(boundTo: hostKey, expiresAt: clock.now)
        await #expect(throws: AuthError.dpopKey("the grant needs a DPoP proof, and no DPoP key was given for it")) {
            try await client(transport, dpopKey: nil).refresh(bound)
        }
        #expect(transport.requests.isEmpty)
    }

    @Test func aWidgetWithoutTheStoredKeyGetsATypedErrorAndMakesNone() async throws {
        let directory = try TemporaryDirectory()
        let shared = try FileSecretStorage(directory: directory.url)
        let transport = server.transport()
        let bound = server.issue(boundTo: widgetsKey, expiresAt: clock.now)
        let widgetsStore = DPoPKeyStore.widgets(in: shared, makesMissingKey: false)
        await #expect(throws: AuthError.dpopKey("no usable DPoP key tandem.dpop.widgets is stored")) {
            try await client(transport, dpopKey: nil).refresh(bound, dpopKey: widgetsStore)
        }
        #expect(try shared.data(forKey: "tandem.dpop.widgets") == nil, "a widget never makes a key of its own")
        try shared.set(Data([1, 0, 0]), forKey: "tandem.dpop.widgets")
        await #expect(throws: AuthError.self) { try await client(transport, dpopKey: nil).refresh(bound, dpopKey: widgetsStore) }
        #expect(try shared.data(forKey: "tandem.dpop.widgets") == Data([1, 0, 0]), "a damaged key is reported, not replaced")
        #expect(transport.requests.isEmpty)
    }

    @Test func aKeyThatCannotSignIsATypedError() async throws {
        struct BrokenKey: DPoPSigner, DPoPKeyProvider {
            let publicKey = SoftwareDPoPKey().publicKey
            func signature(for message: Data) throws -> Data { throw AuthError.dpopKey("the enclave is busy") }
            func key() -> any DPoPSigner { self }
        }
        let transport = server.transport()
        let error = await #expect(throws: AuthError.self) { try await signIn(client(transport, dpopKey: BrokenKey())) }
        guard case .dpopKey(let reason)? = error else { Issue.record("not a dpopKey error: \(String(describing: error))"); return }
        #expect(reason.hasPrefix("the DPoP key cannot sign a proof"))
        #expect(tokenRequests(transport).isEmpty)
    }
}
