import Foundation
import Logging
import TandemPlatform
import TandemSharedContainer

/// What the shared-container targets share: fixed keys (so seeds sealed by `--write-seeds`
/// open in every later run) and one container per process, on a memory file system when there
/// is one, whose writes log nothing.
struct FuzzFixtures: Sendable {
    /// The fixtures of this process, made on first use.
    static let shared: FuzzFixtures = make()

    /// The extensions' share: the snapshots' sealing key derives from it.
    let share: AuxiliaryShare
    /// The key requests and events are sealed with, as every extension holds it.
    let sealingKey: SharedSealingKey
    /// The container the targets write their inputs into and read back.
    let container: SharedContainer
    /// The time every target reads and writes at.
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    private static func make() -> FuzzFixtures {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        let directory = base.appendingPathComponent("tandem-fuzz-\(getpid())", isDirectory: true)
        do {
            let share = try AuxiliaryShare(keyID: Data(repeating: 0x4B, count: 16), bytes: Data(repeating: 0x53, count: 32))
            let storage = FixedSecretStorage(values: ["tandem.shared-sealing-key": Data(repeating: 0x5A, count: 32)])
            guard let sealingKey = try SharedSealingKey.load(from: storage) else { exitSetup("the fixed sealing key did not load") }
            let quiet = Logger(label: "tandem.fuzz") { _ in SwiftLogNoOpLogHandler() }
            let container = try SharedContainer(directory: directory, logger: quiet)
            atexit { try? FileManager.default.removeItem(atPath: FuzzFixtures.shared.container.directory.path) }
            return FuzzFixtures(share: share, sealingKey: sealingKey, container: container)
        } catch {
            exitSetup("\(error)")
        }
    }

    private static func exitSetup(_ reason: String) -> Never {
        FileHandle.standardError.write(Data("tandem-fuzz: cannot set up the fixtures: \(reason)\n".utf8))
        exit(2)
    }

    /// Puts `bytes` at `path` inside the container as any process sharing it could: a plain
    /// write, no format, no sealing.
    func plant(_ bytes: Data, at path: String) {
        let url = container.directory.appendingPathComponent(path)
        do {
            try bytes.write(to: url)
        } catch {
            FuzzFixtures.exitSetup("cannot write \(url.path): \(error)")
        }
    }

    /// The bytes at `path` inside the container, `nil` if there is no file.
    func contents(at path: String) -> Data? {
        FileManager.default.contents(atPath: container.directory.appendingPathComponent(path).path)
    }
}
