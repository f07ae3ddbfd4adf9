import BenchmarkData
import Foundation
import TandemSharedContainer
import TandemVault
import TandemWidgets
import TandemWidgetModel
import TandemPlatform
import TandemHost

/// The brokered round trip without the network: a widget writes a data request with its share,
/// the host's fulfilment opens the vault through the paired key, reads the refresh token, seals
/// the page as a snapshot, removes the request and locks the vault; the widget reads and opens
/// the snapshot. The fetch answers at once with a fixed page, so a round measures the SDK's
/// part of the trip; the server's part is the resource GET that make bench loads with wrk.
final class BrokeredSide: @unchecked Sendable {
    private var directory: BenchmarkDirectory?
    private var fulfilment: BrokeredFulfilment!
    private var share: AuxiliaryShare!
    private var sealingKey: SharedSealingKey!
    private let key = WidgetSide.configuration.entitySetKey
    private let page = WidgetSide.page(rows: 10)

    func setUp() throws {
        let directory = try BenchmarkDirectory(label: "brokered")
        let hostSecrets = try FileSecretStorage(directory: directory.file("host-secrets"))
        let sharedSecrets = try FileSecretStorage(directory: directory.file("shared-secrets"))
        let vault = Vault(directory: directory.file("host"), secrets: hostSecrets)
        try vault.createWithoutPasscode()
        try vault.set(Data("refresh-token".utf8), forKey: "refresh-token")
        try vault.enableExtensionAccess(shared: sharedSecrets)
        vault.lock()
        guard let share = try AuxiliaryShare.load(from: sharedSecrets) else { throw BenchmarkSetupFailure("no auxiliary share") }
        let container = try SharedContainer(directory: directory.file("container"))
        sealingKey = try SharedSealingKey.provision(in: sharedSecrets)
        fulfilment = BrokeredFulfilment(vault: vault, container: container, sealingKey: sealingKey)
        self.share = share
        self.directory = directory
    }

    func tearDown() throws {
        try fulfilment?.vault.destroy()
        directory?.remove()
        fulfilment = nil
    }

    /// One round trip; throws when any step did not happen.
    func round() async throws {
        let container = fulfilment.container
        _ = try container.requests.submit(kind: EntitySetKey.kind, key: key, share: share, sealingKey: sealingKey)
        let page = self.page
        let outcomes = try await fulfilment.fulfilPending { _, vault in
            guard try vault.data(forKey: "refresh-token") != nil else { throw BenchmarkSetupFailure("no refresh token") }
            return FetchedData(payload: page, lifetime: 900)
        }
        guard outcomes.count == 1, case .fulfilled = outcomes[0] else { throw BenchmarkSetupFailure("not fulfilled: \(outcomes)") }
        guard let reading = try container.snapshots.read(kind: EntitySetKey.kind, key: key, using: share),
            reading.snapshot.payload == page
        else { throw BenchmarkSetupFailure("the widget found no snapshot") }
    }
}
