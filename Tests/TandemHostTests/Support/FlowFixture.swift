import Foundation
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import TandemVault

/// A host's directories in a temporary folder: a vault protected by the device secret (no key
/// derivation, so tests are fast), the extensions' secret storage and the shared container, and
/// a context over them whose transport refuses every request (these tests reach no server), on a
/// clock the test moves.
struct FlowFixture {
    let directory: TemporaryDirectory
    let vault: Vault
    let container: SharedContainer
    let context: FlowContext
    let clock = ManualClock()

    init() throws {
        directory = try TemporaryDirectory()
        let host = directory.url.appendingPathComponent("host", isDirectory: true)
        vault = Vault(directory: host, secrets: try FileSecretStorage(directory: host.appendingPathComponent("secrets")))
        try vault.createWithoutPasscode()
        container = try SharedContainer(directory: directory.url.appendingPathComponent("shared/container", isDirectory: true))
        context = FlowContext(
            vault: vault, container: container,
            sharedSecrets: try FileSecretStorage(directory: directory.url.appendingPathComponent("shared/secrets")),
            transport: OfflineTransport(), appVersion: "1.0", presenters: FlowPresenters(), clock: clock)
    }
}

/// A transport with no network: every request fails as a lost connection would.
struct OfflineTransport: HTTPTransport {
    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        throw .transport("offline")
    }
}

/// Collects what happens, in order, across steps and observers.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Locked<[Value]>([])

    func append(_ value: Value) { values.withLock { $0.append(value) } }

    var all: [Value] { values.withLock { $0 } }
}
