import Foundation
import TandemPlatform
import Testing

/// The small-file writes every record goes through: a replacement leaves exactly the new
/// content and nothing beside it, flushed or not (unflushed replacements take another path on
/// Linux, see `AtomicFile.replace`).
@Suite("Atomic file writes")
struct AtomicFileTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    @Test(arguments: [true, false])
    func replacingLeavesTheNewContentAndNothingElse(durable: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("record")
        try AtomicFile.replace(file, with: Data("first".utf8), permissions: 0o600, durable: durable)
        #expect(try Data(contentsOf: file) == Data("first".utf8))
        for round in 0..<20 {
            try AtomicFile.replace(file, with: Data("version \(round)".utf8), permissions: 0o600, durable: durable)
            #expect(try Data(contentsOf: file) == Data("version \(round)".utf8))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["record"])
        let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func aReaderThatOpenedTheOldVersionKeepsReadingIt() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("record")
        try AtomicFile.replace(file, with: Data("old".utf8), permissions: 0o600, durable: false)
        let reader = try FileHandle(forReadingFrom: file)
        defer { try? reader.close() }
        try AtomicFile.replace(file, with: Data("new".utf8), permissions: 0o600, durable: false)
        #expect(try reader.readToEnd() == Data("old".utf8))
        #expect(try Data(contentsOf: file) == Data("new".utf8))
    }

    @Test(arguments: [true, false])
    func aDirectoryInTheWayFailsTheWriteAndLeavesNothingBehind(durable: Bool) throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("record")
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        #expect(throws: FileWriteError.self) { try AtomicFile.replace(file, with: Data("new".utf8), permissions: 0o600, durable: durable) }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["record"])
    }

    @Test func aSymbolicLinkInTheWayIsReplacedNotFollowed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target")
        try Data("target".utf8).write(to: target)
        let file = directory.appendingPathComponent("record")
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: target)
        try AtomicFile.replace(file, with: Data("new".utf8), permissions: 0o600, durable: false)
        #expect(try Data(contentsOf: target) == Data("target".utf8))
        // The link itself was replaced by a regular file.
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.type] as? FileAttributeType == .typeRegular)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
    }

    #if os(Linux)
    @Test func onLinuxUnflushedReplacementsAreSwappedIn() {
        #expect(AtomicFile.swapsUnflushedReplacements)
    }
    #endif

    @Test func createRefusesAnExistingFileAndLeavesItAlone() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("lease")
        try AtomicFile.create(file, with: Data("mine".utf8), permissions: 0o600)
        #expect(throws: FileWriteError.self) { try AtomicFile.create(file, with: Data("theirs".utf8), permissions: 0o600) }
        #expect(try Data(contentsOf: file) == Data("mine".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["lease"])
    }
}
