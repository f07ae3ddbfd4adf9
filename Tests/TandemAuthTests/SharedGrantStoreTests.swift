import Foundation
import TandemPlatform
import TandemSharedContainer
import Testing

@testable import TandemAuth

@Suite struct SharedGrantStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-auth-grant-\(UUID().uuidString)")
    let grant = TokenSet(accessToken: "at_ext", refreshToken: "tdr_ext", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read")

    static func share(_ fill: UInt8) throws -> AuxiliaryShare {
        try AuxiliaryShare(keyID: Data(repeating: fill, count: 16), bytes: Data(repeating: fill &+ 1, count: 32))
    }

    func store(_ fill: UInt8 = 7) throws -> SharedGrantStore {
        SharedGrantStore(container: try SharedContainer(directory: directory), share: try Self.share(fill))
    }

    @Test func grantRoundTripsSealedInTheContainer() throws {
        try store().save(grant)
        #expect(try store().load() == grant)
        let file = try Data(contentsOf: directory.appendingPathComponent("grant"))
        #expect(file.range(of: Data("tdr_ext".utf8)) == nil)
        #expect(file.range(of: Data("at_ext".utf8)) == nil)
    }

    @Test func aGrantSealedUnderAnotherShareReadsAsAbsent() throws {
        try store(7).save(grant)
        #expect(try store(9).load() == nil)
    }

    @Test func clearRemovesTheGrant() throws {
        try store().save(grant)
        try store().clear()
        #expect(try store().load() == nil)
        try store().clear()
    }

    @Test func aStoreSeesWhatAnotherProcessWroteSinceItsLastLoad() throws {
        let reader = try store()
        let writer = try store()
        try writer.save(grant)
        #expect(try reader.load() == grant)
        #expect(try reader.load() == grant)
        let next = TokenSet(accessToken: "at_ext_2", refreshToken: "tdr_ext_2", expiresAt: grant.expiresAt, scope: "data.read")
        try writer.save(next)
        #expect(try reader.load() == next)
        try writer.clear()
        #expect(try reader.load() == nil)
        // What it opened before does not hide a damaged file.
        try writer.save(grant)
        #expect(try reader.load() == grant)
        try Data("garbage".utf8).write(to: directory.appendingPathComponent("grant"))
        #expect(throws: AuthError.self) { try reader.load() }
    }

    @Test func aDamagedGrantIsAStorageErrorAndStaysOnDisk() throws {
        let store = try store()
        try Data("garbage".utf8).write(to: directory.appendingPathComponent("grant"))
        #expect(throws: AuthError.self) { try store.load() }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("grant").path))
    }

    @Test func extensionPresetRefreshesTheSealedGrantThenClearsItWhenTheGrantIsGone() async throws {
        let server = FakeAuthorizationServer()
        let container = try SharedContainer(directory: directory)
        let share = try Self.share(5)
        try SharedGrantStore(container: container, share: share).save(
            TokenSet(accessToken: "at_0", refreshToken: "tdr_0", expiresAt: Date(timeIntervalSinceNow: -1)))
        let oauth = OAuthClient(configuration: FakeAuthorizationServer.configuration, client: HTTPClient(transport: server.transport()))
        let coordinator = RefreshCoordinator.extensionGrant(container: container, share: share, oauth: oauth)
        #expect(try await coordinator.validAccessToken() == "at_1")
        #expect(coordinator.leaseName == RefreshCoordinator.extensionGrantLeaseName)

        server.state.withLock { $0.grantRevoked = true }
        await #expect(throws: AuthError.reauthenticationRequired) { try await coordinator.refresh(replacing: "at_1") }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("grant").path))
        #expect(try container.status()?.state == .reauthRequired)
    }
}
