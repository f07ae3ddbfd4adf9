import BenchmarkData
import Foundation
import TandemAuth
import TandemSharedContainer

/// Coordinators sharing one token store and one lease directory, as the widget processes of
/// one app share the extension grant: each round, all of them find the access token stale at
/// once and exactly one redeems the refresh token. The redeemer answers at once, so a round
/// measures the coordination, not a server.
final class RefreshSide: @unchecked Sendable {
    private var directory: BenchmarkDirectory?
    private var coordinators: [RefreshCoordinator] = []
    private var store: MemoryTokenStore!
    private let redemptions = RedemptionCounter()

    func setUp() throws {
        let directory = try BenchmarkDirectory(label: "refresh")
        let leases = try SharedLeases(directory: directory.file("leases"))
        let store = MemoryTokenStore(Self.tokens(0))
        let redemptions = self.redemptions
        coordinators = (0..<8).map { _ in
            RefreshCoordinator(
                store: store, leases: leases, leaseName: RefreshCoordinator.extensionGrantLeaseName,
                redeem: { _ throws(AuthError) in Self.tokens(redemptions.next()) })
        }
        self.store = store
        self.directory = directory
    }

    func tearDown() throws {
        directory?.remove()
        coordinators = []
        store = nil
    }

    /// One round: the first `count` coordinators refresh the stored access token together.
    func round(coordinators count: Int) async throws {
        guard let stale = store.load()?.accessToken else { throw BenchmarkSetupFailure("the token store is empty") }
        let before = redemptions.count
        try await withThrowingTaskGroup(of: Void.self) { group in
            for coordinator in coordinators.prefix(count) {
                group.addTask { _ = try await coordinator.refresh(replacing: stale) }
            }
            try await group.waitForAll()
        }
        guard redemptions.count == before + 1 else {
            throw BenchmarkSetupFailure("\(redemptions.count - before) redemptions in one round, not one")
        }
    }

    static func tokens(_ number: Int) -> TokenSet {
        TokenSet(accessToken: "access-\(number)", refreshToken: "refresh-\(number)", expiresAt: Date().addingTimeInterval(3600))
    }
}

/// Counts redemptions across the coordinators' tasks.
final class RedemptionCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    var count: Int { lock.withLock { value } }

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
