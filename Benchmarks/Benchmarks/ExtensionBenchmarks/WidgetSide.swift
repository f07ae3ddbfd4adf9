import BenchmarkData
import Foundation
import TandemSharedContainer
import TandemVault
import TandemWidgets
import TandemWidgetModel
import TandemPlatform

/// A signed-in host's container holding a fresh snapshot of the widget's page, and the brokered
/// business widget that reads it: the timeline it builds is what WidgetKit asks for.
final class WidgetSide: @unchecked Sendable {
    static let configuration = DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders", limit: 10)

    private var directory: BenchmarkDirectory?
    private(set) var provider: DataWidgetProvider!

    func setUp() throws {
        let directory = try BenchmarkDirectory(label: "widget")
        let container = try SharedContainer(directory: directory.file("container"))
        let share = try AuxiliaryShare(keyID: Data(repeating: 3, count: 16), bytes: Data(repeating: 4, count: 32))
        let sealingKey = try SharedSealingKey.provision(in: try FileSecretStorage(directory: directory.file("secrets")))
        let now = Date()
        try container.setStatus(SessionStatus(state: .ready, updatedAt: now))
        // Fresh for a day: every timeline in the run shows it as current.
        let snapshot = Snapshot(payload: Self.page(rows: 10), fetchedAt: now, expiresAt: now.addingTimeInterval(86_400))
        try container.snapshots.write(snapshot, kind: EntitySetKey.kind, key: Self.configuration.entitySetKey, share: share)
        provider = DataWidgetProvider(
            kind: "orders", scheme: "acme", container: container,
            credentials: FixedCredentials(fixed: WidgetCredentials(share: share, sealingKey: sealingKey)))
        self.directory = directory
    }

    func tearDown() throws {
        directory?.remove()
        provider = nil
    }

    /// A `SalesOrders` page of `rows` orders, shaped as the server's entity-set response.
    static func page(rows: Int) -> Data {
        let items = (0..<rows).map { index in
            #"{"CustomerID":"C\#(1001 + index)","CustomerName":"Customer \#(index)","GrossAmount":"\#(100 + index).00","Quantity":\#(index + 1),"SalesOrderID":"SO\#(500_001 + index)","DeliveryDate":null}"#
        }
        return Data(#"{"items":[\#(items.joined(separator: ","))],"limit":\#(rows),"next":null,"offset":0,"total":240}"#.utf8)
    }
}

/// The widget's share and shared sealing key, always readable.
struct FixedCredentials: WidgetCredentialSource {
    let fixed: WidgetCredentials

    func credentials() throws(WidgetCredentialError) -> WidgetCredentials? { fixed }
}
