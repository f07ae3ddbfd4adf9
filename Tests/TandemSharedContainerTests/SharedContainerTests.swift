import Foundation
import TandemTestSupport
import Testing

@testable import TandemSharedContainer

/// A shared container in a fresh temporary directory.
final class TemporaryContainer {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-container-\(UUID().uuidString)")
    deinit { try? FileManager.default.removeItem(at: directory) }

    /// A new `SharedContainer` over the same directory, as another process would open it.
    func open() throws -> SharedContainer { try SharedContainer(directory: directory) }
}

@Suite("Shared container records")
struct SharedContainerTests {
    @Test func statusWrittenByTheHostReadsBackInAnotherInstance() throws {
        let home = TemporaryContainer()
        #expect(try home.open().status() == nil)
        let status = SessionStatus(state: .reauthRequired, updatedAt: Date(timeIntervalSince1970: 1_800_000_000.123), reason: "invalid_grant")
        try home.open().setStatus(status)
        #expect(try home.open().status() == status)
    }

    @Test func recordsAreWrittenAtomicallyAndPrivately() throws {
        let home = TemporaryContainer()
        let container = try home.open()
        for index in 0..<20 { try container.setStatus(SessionStatus(state: .ready, reason: "write \(index)")) }
        let names = try FileManager.default.contentsOfDirectory(atPath: home.directory.path)
        #expect(!names.contains { $0.hasSuffix(".tmp") })
        let attributes = try FileManager.default.attributesOfItem(atPath: container.url("status").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test(arguments: [
        (Data(), "the file is empty"),
        (Data([0x00, 0xFF, 0x13, 0x37, 0x42]), "not a Tandem shared record"),
        (Data("{\"format\":\"tandem.shared\",\"version\":1,\"kind\":\"status\",\"body\":{\"state\":\"ready\"".utf8), "not a Tandem shared record"),
        (Data("{\"format\":\"tandem.shared\",\"version\":1,\"kind\":\"status\",\"body\":{\"state\":\"dancing\",\"updatedAt\":1}}".utf8), "the status body does not decode"),
    ])
    func damagedStatusFilesAreTypedErrorsNotGarbage(bytes: Data, reason: String) throws {
        let home = TemporaryContainer()
        let container = try home.open()
        try bytes.write(to: container.url("status"))
        #expect(throws: SharedContainerError.corrupt(path: "status", reason: reason)) { try container.status() }
    }

    @Test func newerAndForeignRecordsAreNamedAsSuch() throws {
        let home = TemporaryContainer()
        let container = try home.open()
        try Data("{\"format\":\"tandem.shared\",\"version\":2,\"kind\":\"status\",\"body\":{}}".utf8).write(to: container.url("status"))
        #expect(throws: SharedContainerError.unsupportedVersion(path: "status", version: 2)) { try container.status() }
        let lease = try #require(try container.leases.acquire("refresh", duration: 10))
        try FileManager.default.copyItem(at: container.url(SharedContainer.leasePath(lease.name)), to: container.url("status.lease"))
        try FileManager.default.removeItem(at: container.url("status"))
        try FileManager.default.moveItem(at: container.url("status.lease"), to: container.url("status"))
        #expect(throws: SharedContainerError.foreignRecord(path: "status", kind: "lease")) { try container.status() }
    }

    @Test func invalidNamesAreRefused() throws {
        let container = try TemporaryContainer().open()
        for name in ["", "../status", ".hidden", "a/b", "spaced name"] {
            #expect(throws: SharedContainerError.invalidName(name)) { try container.leases.acquire(name, duration: 1) }
        }
    }
}

@Suite("Leftovers of interrupted writes")
struct LeftoverTests {
    let home = TemporaryContainer()

    /// Creates `path` (relative to the container) holding a few bytes, last modified `age` ago.
    func plant(_ path: String, age: TimeInterval) throws {
        let file = home.directory.appendingPathComponent(path)
        try Data("left".utf8).write(to: file)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: file.path)
    }

    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: home.directory.appendingPathComponent(path).path)
    }

    @Test func openingTheContainerRemovesOldTemporaryFilesAndNothingElse() throws {
        let container = try home.open()
        try container.setStatus(SessionStatus(state: .ready))
        let old = [".grant.123.tmp", "snapshots/.x.snapshot.456.tmp", "requests/.y.request.ABC.aside", "leases/.staging/DEF"]
        let kept = [
            ".status.789.tmp",  // a write under way in another process
            "leases/.token-refresh.removal-lock",  // hidden, but a lock, not a write
            "snapshots/notes.txt",  // a foreign file: reported when listed, never removed
        ]
        for path in old { try plant(path, age: 120) }
        try plant(kept[0], age: 1)
        try plant(kept[1], age: 3600)
        try plant(kept[2], age: 3600)

        let recorder = LogCapture()
        _ = try SharedContainer(directory: home.directory, logger: recorder.logger)
        for path in old { #expect(!exists(path), "\(path) should be removed") }
        for path in kept + ["status"] { #expect(exists(path), "\(path) should stay") }
        #expect(try home.open().status()?.state == .ready)
        #expect(recorder.logged("removed a temporary file left by an interrupted write", "path=leases/.staging/DEF"))
    }
}
