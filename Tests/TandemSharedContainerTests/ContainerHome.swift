import Foundation
import TandemPlatform
import TandemTestSupport

@testable import TandemSharedContainer

/// A host and its widget laid out as on a device, in a fresh temporary directory: the secret
/// storage shared with the widget and the shared container. (Fulfilment with the host's vault is
/// tested with the host, in `TandemHostTests`.)
final class ContainerHome {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("tandem-container-home-\(UUID().uuidString)")
    let recorder = LogCapture()
    var containerDirectory: URL { root.appendingPathComponent("container") }
    let sharedSecrets: FileSecretStorage

    init() throws {
        sharedSecrets = try FileSecretStorage(directory: root.appendingPathComponent("shared-secrets"))
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    /// The shared container, as either process opens it; it logs into ``recorder``.
    func container() throws -> SharedContainer { try SharedContainer(directory: containerDirectory, logger: recorder.logger) }

    /// The shared sealing key, as the host provisions it (the first call) and the widget loads it.
    func sealingKey() throws -> SharedSealingKey { try SharedSealingKey.provision(in: sharedSecrets) }

    /// Every regular file under the shared container, with its bytes.
    func containerFiles() throws -> [(URL, Data)] { try regularFiles(under: containerDirectory) }
}

/// A request key as a widget's configuration gives it.
struct EntityKey: Codable, Equatable {
    var destination: String
    var entitySet: String
}
