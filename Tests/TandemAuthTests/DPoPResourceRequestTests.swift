import Foundation
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemTestSupport
import Testing

@testable import TandemAuth

/// Resource requests with a DPoP-bound token (RFC 9449 §7): `Authorization: DPoP` and a fresh
/// proof of the request (method, URL without query, `ath` of the token), with the refresh on a
/// 401 signed by the grant's key; a bearer token is sent as before. And the single-flight
/// refresh of a bound grant shared by several processes.
@Suite("DPoP resource requests", .timeLimit(.minutes(1)))
struct DPoPResourceRequestTests {
    let clock = ManualClock()
    let key = SoftwareDPoPKey()
    let server: FakeDPoPServer
    let directory: TemporaryDirectory

    init() throws {
        server = FakeDPoPServer(clock: clock)
        directory = try TemporaryDirectory()
    }

    func oauth(_ transport: FakeTransport, dpopKey: (any DPoPKeyProvider)?) -> OAuthClient {
        OAuthClient(configuration: FakeAuthorizationServer.configuration, client: HTTPClient(transport: transport), clock: clock, dpopKey: dpopKey)
    }

    func coordinator(_ store: any TokenStore, _ transport: FakeTransport, dpopKey: (any DPoPKeyProvider)?) throws -> RefreshCoordinator {
        RefreshCoordinator(
            store: store, leases: try SharedContainer(directory: directory.url).leases, oauth: oauth(transport, dpopKey: dpopKey))
    }

    func get(_ url: String, _ provider: any AccessTokenProvider, _ transport: FakeTransport) async throws -> HTTPResponse {
        let client = HTTPClient(transport: transport, middlewares: [BearerTokenMiddleware(provider: provider, clock: clock)])
        return try await client.send(HTTPRequest(url: try #require(URL(string: url))))
    }

    @Test func aBoundTokenGoesAsDPoPWithAProofOfTheRequest() async throws {
        let transport = server.transport()
        let store = MemoryTokenStore(server.issue(boundTo: key, expiresAt: clock.now.addingTimeInterval(300)))
        let response = try await get(
            "https://auth.test/v1/destinations/sales/SalesOrders?$top=5#rows", try coordinator(store, transport, dpopKey: key), transport)
        #expect(response.status == 200)
        let request = try #require(transport.requests.last)
        #expect(request.headers["Authorization"] == "DPoP at_1")
        let proof = try DPoPProof(parsing: try #require(request.headers[DPoPProof.headerName]))
        #expect(proof.method == "GET")
        #expect(proof.url == "https://auth.test/v1/destinations/sales/SalesOrders", "htu has no query and no fragment")
        #expect(proof.accessTokenHash == DPoPProof.accessTokenHash("at_1"))
        #expect(proof.issuedAt == clock.now)
        #expect(proof.nonce == nil, "no nonce at resource endpoints")
        #expect(proof.publicKey.thumbprint == key.publicKey.thumbprint)
    }

    @Test func aBearerTokenIsSentAsBefore() async throws {
        let transport = server.transport()
        let store = MemoryTokenStore(server.issue(boundTo: nil, expiresAt: clock.now.addingTimeInterval(300)))
        let response = try await get("https://auth.test/v1/destinations", try coordinator(store, transport, dpopKey: key), transport)
        #expect(response.status == 200)
        let request = try #require(transport.requests.last)
        #expect(request.headers.map(\.name) == ["Authorization"])
        #expect(request.headers["Authorization"] == "Bearer at_1")
    }

    @Test func aRefusedBoundTokenIsRefreshedWithItsKeyAndRetriedWithANewProof() async throws {
        let transport = server.transport()
        let first = server.issue(boundTo: key, expiresAt: clock.now.addingTimeInterval(300))
        // The server no longer knows the access token (revoked, say); the grant still works.
        server.state.withLock { $0.accessTokens["at_1"] = nil }
        let store = MemoryTokenStore(first)
        let response = try await get("https://auth.test/v1/destinations", try coordinator(store, transport, dpopKey: key), transport)
        #expect(response.status == 200)
        let resources = transport.requests.filter { $0.url.path.hasPrefix("/v1/") }
        #expect(resources.map { $0.headers["Authorization"] } == ["DPoP at_1", "DPoP at_2"])
        let retried = try DPoPProof(parsing: try #require(resources.last?.headers[DPoPProof.headerName]))
        #expect(retried.accessTokenHash == DPoPProof.accessTokenHash("at_2"))
        #expect(server.proofs.last?.publicKey.thumbprint == key.publicKey.thumbprint, "the refresh was signed by the grant's key")
        #expect(store.load()?.isDPoPBound == true)
    }

    @Test func aBoundTokenWithoutAKeyIsATypedErrorAndIsNotSent() async throws {
        let transport = server.transport()
        let store = MemoryTokenStore(server.issue(boundTo: key, expiresAt: clock.now.addingTimeInterval(300)))
        await #expect(throws: AuthError.dpopKey("the grant is bound to a DPoP key, and no key was given to sign its requests")) {
            try await get("https://auth.test/v1/destinations", try coordinator(store, transport, dpopKey: nil), transport)
        }
        #expect(transport.requests.isEmpty)
    }

    // MARK: - Single flight across processes

    @Test func processesSharingABoundGrantRedeemItOnceSignedByItsKey() async throws {
        // The host made the widgets' key in the shared storage; each "process" reads it through
        // its own store, container handle, OAuth client (and nonce memory).
        let shared = try FileSecretStorage(directory: directory.url.appendingPathComponent("secrets"))
        let widgetsKey = try DPoPKeyStore.widgets(in: shared).key()
        let share = try SharedGrantStoreTests.share(5)
        let stores = try (0..<3).map { _ in SharedGrantStore(container: try SharedContainer(directory: directory.url), share: share) }
        try stores[0].save(server.issue(boundTo: widgetsKey, expiresAt: clock.now.addingTimeInterval(-1)))
        let transport = server.transport(holdingTokenRequestsFor: .milliseconds(30))
        let coordinators = try stores.map { store in
            let secrets = try FileSecretStorage(directory: directory.url.appendingPathComponent("secrets"))
            let dpopKey = DPoPKeyStore.widgets(in: secrets, makesMissingKey: false)
            return RefreshCoordinator.extensionGrant(
                container: store.container, share: share, oauth: oauth(transport, dpopKey: nil), dpopKey: dpopKey)
        }
        let clock = clock
        // The winner's first request meets use_dpop_nonce, its retry is answered: two waits.
        let release = Task {
            try await clock.waitForSleepers(12)
            clock.advance(by: .milliseconds(30))
            try await clock.waitForSleepers(12)
            clock.advance(by: .milliseconds(30))
        }
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<12 {
                group.addTask { try await coordinators[index % coordinators.count].accessCredential().token }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        try await release.value
        #expect(tokens == ["at_2"])
        #expect(server.redemptions == 1)
        #expect(server.proofs.allSatisfy { $0.publicKey.thumbprint == widgetsKey.publicKey.thumbprint })
        #expect(try stores[2].load()?.isDPoPBound == true)
    }
}
