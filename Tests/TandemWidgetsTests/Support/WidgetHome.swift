import Foundation
import TandemPlatform
import TandemSharedContainer
import TandemTestSupport
import TandemVault
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets

/// A host and its business widget sharing a real container in a temporary directory: the
/// share and shared sealing key the widget reads (through ``credentials``, which a test can lock), and
/// what the host does (publish its status, fulfil the widget's requests).
final class WidgetHome: Sendable {
    let directory: TemporaryDirectory
    let container: SharedContainer
    let share: AuxiliaryShare
    let sealingKey: SharedSealingKey
    let credentials = TestCredentials()
    let log = LogCapture()

    static let kind = "orders"
    static let scheme = "acme"
    static let orders = DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders", limit: 3)
    /// How long the host's snapshots live: an hour, longer than the widget's default freshness
    /// (40 minutes), so that the widget's own schedule decides when rows turn stale.
    static let hostLifetime: TimeInterval = 60 * 60

    init() throws {
        directory = try TemporaryDirectory()
        container = try SharedContainer(directory: directory.url.appendingPathComponent("container"), logger: log.logger)
        share = try Self.share(fill: 7)
        sealingKey = try SharedSealingKey.provision(in: try FileSecretStorage(directory: directory.url.appendingPathComponent("secrets")))
        credentials.set(.available(WidgetCredentials(share: share, sealingKey: sealingKey)))
    }

    static func share(fill: UInt8) throws -> AuxiliaryShare {
        try AuxiliaryShare(keyID: Data(repeating: fill, count: 16), bytes: Data(repeating: fill &+ 1, count: 32))
    }

    /// A brokered (or `mode`) provider on `clock`.
    func provider(clock: VirtualClock, mode: DataWidgetMode = .brokered, schedule: DataWidgetSchedule = DataWidgetSchedule()) -> DataWidgetProvider {
        DataWidgetProvider(
            kind: Self.kind, scheme: Self.scheme, container: container, credentials: credentials, mode: mode,
            schedule: schedule, clock: clock, logger: log.logger)
    }

    // MARK: - The host

    func signIn(at date: Date) throws {
        try container.setStatus(SessionStatus(state: .ready, updatedAt: date))
    }

    /// Writes the snapshot of `configuration` as the host would, fetched at `date`, living ``hostLifetime``.
    func writeSnapshot(_ payload: Data = Pages.orders(3), for configuration: DataWidgetConfiguration = orders, at date: Date, share: AuxiliaryShare? = nil) throws {
        let snapshot = Snapshot(payload: payload, fetchedAt: date, expiresAt: date.addingTimeInterval(Self.hostLifetime))
        try container.snapshots.write(snapshot, kind: EntitySetKey.kind, key: configuration.entitySetKey, share: share ?? self.share)
    }

    /// The host's background run: answers every pending request with `payload`, fetched at `date`.
    @discardableResult
    func fulfilRequests(with payload: Data = Pages.orders(3), at date: Date) throws -> Int {
        let requests = try container.requests.pending(sealingKey: sealingKey)
        for request in requests {
            try container.snapshots.write(Snapshot(payload: payload, fetchedAt: date, expiresAt: date.addingTimeInterval(Self.hostLifetime)), for: request)
            container.requests.complete(request)
        }
        return requests.count
    }

    /// The keys of the requests waiting for the host.
    func requestedKeys() throws -> [EntitySetKey] {
        try container.requests.pending(sealingKey: sealingKey).map { try $0.decodeKey(EntitySetKey.self) }
    }

    /// The files in a folder of the container, hidden ones left out.
    func files(in folder: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: container.directory.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
    }
}

/// Credentials a test hands out, withholds (device locked) or removes (extension access off).
final class TestCredentials: WidgetCredentialSource {
    enum Mode: Sendable {
        case available(WidgetCredentials)
        case locked
        case none
    }

    private let mode = Locked<Mode>(.none)

    func set(_ mode: Mode) { self.mode.withLock { $0 = mode } }

    func credentials() throws(WidgetCredentialError) -> WidgetCredentials? {
        switch mode.withLock({ $0 }) {
        case .available(let credentials): return credentials
        case .locked: throw .unreadable(reason: "before first unlock")
        case .none: return nil
        }
    }
}

/// Page bodies shaped as the server's `GET /v1/destinations/{destination}/{entitySet}`.
enum Pages {
    static let customers = ["Alpine Logistics", "Blue Harbor Retail", "Cedar Foods", "Delta Engineering", "Evergreen Health"]

    /// A `SalesOrders` page of `count` orders.
    static func orders(_ count: Int) -> Data {
        let items = (0..<count).map { index in
            #"{"CustomerID":"C\#(1001 + index)","CustomerName":"\#(customers[index % customers.count])","GrossAmount":"\#(100 + index).00","Quantity":\#(index + 1),"SalesOrderID":"SO\#(500_001 + index)","DeliveryDate":null}"#
        }
        return Data(#"{"items":[\#(items.joined(separator: ","))],"limit":\#(count),"next":null,"offset":0,"total":240}"#.utf8)
    }

    /// Three orders whose customer is "version `version`": which data a widget shows.
    static func versioned(_ version: Int) -> Data {
        let items = (0..<3).map { index in
            #"{"CustomerID":"C\#(1001 + index)","CustomerName":"version \#(version)","SalesOrderID":"SO\#(500_001 + index)"}"#
        }
        return Data(#"{"items":[\#(items.joined(separator: ","))],"limit":3,"next":null,"offset":0,"total":3}"#.utf8)
    }
}
