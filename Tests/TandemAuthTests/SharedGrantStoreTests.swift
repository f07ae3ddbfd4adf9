import Foundation
import TandemBridge
import TandemVault
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

    @Test func aDamagedGrantIsAStorageErrorAndStaysOnDisk() throws {
        let store = try store()
        try Data("garbage".utf8).write(to: directory.appendingPathComponent("grant"))
        #expect(throws: AuthError.self) { try store.load() }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("grant").path))
    }
}
