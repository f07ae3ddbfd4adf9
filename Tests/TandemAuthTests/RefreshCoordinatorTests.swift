import Foundation
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import Testing

@testable import TandemAuth

/// Token expiries, leases and the waits for a peer run on a clock the test moves (starting at
/// the real time, so that tokens made with `Date()` read as they would).
@Suite(.timeLimit(.minutes(1))) struct RefreshCoordinatorTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-auth-\(UUID().uuidString)")
    let server = FakeAuthorizationServer()
    let events = Locked<[RefreshEvent]>([])
    let clock = ManualClock(start: Date())

    static func expired(_ access: String = "at_0", _ refresh: String = "tdr_0") -> TokenSet {
        TokenSet(accessToken: access, refreshToken: refresh, expiresAt: Date(timeIntervalSinceNow: -60), scope: "data.read")
    }

    /// A coordinator as one process would have it: its own container handle on the shared
    /// directory, its own OAuth client, the shared store; on the suite's clock.
    func coordinator(
        store: any TokenStore, transport: FakeTransport, leaseDuration: TimeInterval = 10,
        onReauthenticationRequired: @escaping @Sendable () -> Void = {},
        onEvent: (@Sendable (RefreshEvent) -> Void)? = nil
    ) throws -> RefreshCoordinator {
        let oauth = OAuthClient(configuration: FakeAuthorizationServer.configuration, client: HTTPClient(transport: transport), clock: clock)
        let events = events
        return RefreshCoordinator(
            store: store, leases: try SharedContainer(directory: directory).leases, leaseDuration: leaseDuration,
            redeem: { tokens throws(AuthError) in try await oauth.refresh(tokens) },
            onReauthenticationRequired: onReauthenticationRequired,
            onEvent: onEvent ?? { event in events.withLock { $0.append(event) } }, clock: clock)
    }

    /// Moves the clock past a held redemption once `callers` tasks are asleep on it: the one
    /// redeeming, and every other caller waiting for its lease.
    func releaseTheRedemption(once callers: Int) -> Task<Void, any Error> {
        let clock = clock
        return Task {
            try await clock.waitForSleepers(callers)
            clock.advance(by: .milliseconds(30))
        }
    }

    var recorded: [RefreshEvent] { events.withLock { $0 } }

    // MARK: - Single flight

    @Test func manyConcurrentCallersRedeemOncePerRound() async throws {
        let store = MemoryTokenStore(Self.expired())
        let transport = server.transport(holdingTokenRequestsFor: .milliseconds(30), on: clock)
        let coordinators = try (0..<4).map { _ in try coordinator(store: store, transport: transport) }
        for round in 1...3 {
            let release = releaseTheRedemption(once: 24)
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<24 {
                    group.addTask { try await coordinators[index % coordinators.count].validAccessToken(minimumValidity: 30) }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            try await release.value
            #expect(tokens == ["at_\(round)"])
            #expect(server.redemptions == round)
            // Expire the round's result so the next round needs a refresh again.
            var stored = try #require(store.load())
            stored.expiresAt = clock.now.addingTimeInterval(-1)
            store.save(stored)
        }
        #expect(try SharedContainer(directory: directory).leases.current("token-refresh") == nil)
    }

    @Test func processesSharingTheSealedGrantRedeemItOnce() async throws {
        // Each "process" has its own container handle and its own store instance on one directory.
        let share = try SharedGrantStoreTests.share(3)
        let stores = try (0..<3).map { _ in SharedGrantStore(container: try SharedContainer(directory: directory), share: share) }
        try stores[0].save(Self.expired())
        let transport = server.transport(holdingTokenRequestsFor: .milliseconds(30), on: clock)
        let coordinators = try stores.map { try coordinator(store: $0, transport: transport) }
        let release = releaseTheRedemption(once: 12)
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<12 {
                group.addTask { try await coordinators[index % coordinators.count].validAccessToken(minimumValidity: 30) }
            }
            return try await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        try await release.value
        #expect(tokens == ["at_1"])
        #expect(server.redemptions == 1)
        #expect(try stores[2].load()?.refreshToken == "tdr_1")
    }

    @Test func aStaleTokenAlreadyReplacedIsReusedWithoutARequest() async throws {
        let store = MemoryTokenStore(TokenSet(accessToken: "at_7", refreshToken: "tdr_7", expiresAt: Date(timeIntervalSinceNow: 300)))
        let transport = server.transport()
        let tokens = try await coordinator(store: store, transport: transport).refresh(replacing: "at_6")
        #expect(tokens.accessToken == "at_7")
        #expect(transport.requests.isEmpty)
        #expect(recorded == [.reusedPeerResult])
    }

    @Test func aValidTokenNeedsNoRefresh() async throws {
        let store = MemoryTokenStore(TokenSet(accessToken: "at_7", refreshToken: "tdr_7", expiresAt: Date(timeIntervalSinceNow: 300)))
        let transport = server.transport()
        #expect(try await coordinator(store: store, transport: transport).validAccessToken(minimumValidity: 60) == "at_7")
        #expect(transport.requests.isEmpty)
    }

    @Test func leaseIsReportedBeforeTheRequestAndTokensAreSavedBeforeItIsReleased() async throws {
        let store = MemoryTokenStore(Self.expired())
        let container = try SharedContainer(directory: directory)
        let seenAtRequest = Locked<[RefreshEvent]?>(nil)
        let leaseAtRequest = Locked(false)
        let transport = FakeTransport { request throws(AuthError) in
            if request.url.path == "/oauth/token" {
                let lease = (try? container.leases.current("token-refresh")) != nil
                seenAtRequest.withLock { $0 = self.recorded }
                leaseAtRequest.withLock { $0 = lease }
            }
            return self.server.answer(request)
        }
        let savedUnderLease = Locked<Bool?>(nil)
        let events = events
        let coordinator = try coordinator(store: store, transport: transport, onEvent: { event in
            events.withLock { $0.append(event) }
            if event == .refreshed {
                let leased = (try? container.leases.current("token-refresh")) != nil
                savedUnderLease.withLock { $0 = leased && store.load()?.accessToken == "at_1" }
            }
        })
        _ = try await coordinator.refresh(replacing: nil)
        #expect(seenAtRequest.withLock { $0 } == [.leaseAcquired])
        #expect(leaseAtRequest.withLock { $0 })
        #expect(savedUnderLease.withLock { $0 } == true)
        #expect(try container.leases.current("token-refresh") == nil)
    }

    @Test func aPeerResultSavedJustBeforeTheLeaseIsTakenIsReusedUnderIt() async throws {
        // The peer saves its result right after our last look before taking the lease (our
        // first: we hold no lease, so we look once, then take it).
        let store = PeerSavingStore(Self.expired(), peerSavesAfterLoad: 1,
                                    peerResult: TokenSet(accessToken: "at_peer", refreshToken: "tdr_peer", expiresAt: Date(timeIntervalSinceNow: 300)))
        let transport = server.transport()
        let tokens = try await coordinator(store: store, transport: transport).refresh(replacing: "at_0")
        #expect(tokens.accessToken == "at_peer")
        #expect(transport.requests.isEmpty)
        #expect(recorded == [.leaseAcquired, .reusedPeerResult])
    }

    @Test func aRefreshUnderWayIsWaitedForBeforeTheStoreIsRead() async throws {
        // A peer process is refreshing: it holds the lease.
        let container = try SharedContainer(directory: directory)
        let lease = try #require(try container.leases.acquire("token-refresh", duration: 60, now: clock.now))
        let store = CountingStore(Self.expired())
        let transport = server.transport()
        let coordinator = try coordinator(store: store, transport: transport)
        let caller = Task { try await coordinator.refresh(replacing: "at_0") }
        // The caller waits without reading the store (or the lease) while the peer works...
        try await clock.waitForSleepers()
        #expect(store.loads == 0)
        // ...then reuses what the peer saved.
        store.save(TokenSet(accessToken: "at_peer", refreshToken: "tdr_peer", expiresAt: Date(timeIntervalSinceNow: 300)))
        try container.leases.release(lease)
        #expect(try await caller.value.accessToken == "at_peer")
        #expect(transport.requests.isEmpty)
        #expect(recorded.last == .reusedPeerResult)
    }

    @Test func aGrantClearedUnderAPeersLeaseMeansReauthentication() async throws {
        // The peer met invalid_grant, cleared the grant, and died before releasing: its lease
        // stays on file until it expires (whenever the caller starts, it finds the file).
        let container = try SharedContainer(directory: directory)
        _ = try #require(try container.leases.acquire("token-refresh", duration: 0.2, now: clock.now))
        let store = CountingStore(Self.expired())
        store.clear()
        let transport = server.transport()
        let coordinator = try coordinator(store: store, transport: transport)
        let caller = Task { try await coordinator.refresh(replacing: "at_0") }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(200))
        await #expect(throws: AuthError.reauthenticationRequired) { try await caller.value }
        #expect(transport.requests.isEmpty)
        #expect(store.loads == 1)
    }

    // MARK: - Dead holders

    @Test func aLeaseLeftByADeadHolderIsBrokenAfterItExpires() async throws {
        let container = try SharedContainer(directory: directory)
        // The "dead" holder: takes the lease and never gives it back.
        _ = try #require(try container.leases.acquire("token-refresh", duration: 0.3, now: clock.now))
        let store = MemoryTokenStore(Self.expired())
        let coordinator = try coordinator(store: store, transport: server.transport())
        let caller = Task { try await coordinator.refresh(replacing: "at_0") }
        try await clock.waitForSleepers()
        clock.advance(by: .milliseconds(300))
        let tokens = try await caller.value
        #expect(tokens.accessToken == "at_1")
        #expect(server.redemptions == 1)
        #expect(recorded.contains(.brokeExpiredLease))
        #expect(recorded.contains { if case .waitedForPeer = $0 { true } else { false } })
        #expect(recorded.suffix(2) == [.leaseAcquired, .refreshed])
        #expect(try container.leases.current("token-refresh") == nil)
    }

    @Test func anAlreadyExpiredLeaseIsBrokenAtOnce() async throws {
        let container = try SharedContainer(directory: directory)
        _ = try #require(try container.leases.acquire("token-refresh", duration: 1, now: Date(timeIntervalSinceNow: -60)))
        let store = MemoryTokenStore(Self.expired())
        _ = try await coordinator(store: store, transport: server.transport()).refresh(replacing: nil)
        #expect(recorded == [.brokeExpiredLease, .leaseAcquired, .refreshed])
    }

    // MARK: - invalid_grant

    @Test func invalidGrantClearsTheStoreAndMarksReauthRequired() async throws {
        server.state.withLock { $0.grantRevoked = true }
        let container = try SharedContainer(directory: directory)
        let store = MemoryTokenStore(Self.expired())
        let transport = server.transport(holdingTokenRequestsFor: .milliseconds(30), on: clock)
        let release = releaseTheRedemption(once: 9)
        let coordinators = try (0..<3).map { _ in
            try coordinator(
                store: store, transport: transport,
                onReauthenticationRequired: RefreshCoordinator.markReauthenticationRequired(in: container))
        }
        let outcomes = await withTaskGroup(of: AuthError?.self) { group in
            for index in 0..<9 {
                group.addTask { await Self.failure { () async throws(AuthError) in try await coordinators[index % 3].validAccessToken() } }
            }
            return await group.reduce(into: [AuthError?]()) { $0.append($1) }
        }
        try await release.value
        // Callers that looked after the store was cleared find nobody signed in; none succeeds.
        #expect(outcomes.allSatisfy { $0 == .reauthenticationRequired || $0 == .notSignedIn })
        #expect(outcomes.contains(.reauthenticationRequired))
        #expect(transport.requests.filter { $0.url.path == "/oauth/token" }.count == 1)
        #expect(store.load() == nil)
        #expect(try container.status()?.state == .reauthRequired)
        #expect(recorded.filter { $0 == .reauthenticationRequired }.count == 1)
        #expect(try container.leases.current("token-refresh") == nil)
    }

    @Test func nothingStoredIsNotSignedIn() async throws {
        await #expect(throws: AuthError.notSignedIn) {
            try await coordinator(store: MemoryTokenStore(), transport: server.transport()).validAccessToken()
        }
    }

    /// The error `body` throws, or `nil` when it succeeds.
    static func failure(_ body: () async throws(AuthError) -> String) async -> AuthError? {
        do throws(AuthError) {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }
}
