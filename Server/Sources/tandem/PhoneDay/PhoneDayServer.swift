import Foundation
import Logging
import ServiceLifecycle
import TandemPlatform
import TandemProtocol
import TandemServer
import TandemTool
import TandemWidgetModel

/// The real Tandem server, in this process, on the phone day's virtual clock: a throwaway
/// SQLite database with the demo app, a user per mode's app, and one entity set whose rows say
/// which version of the data they are, replaced at each of the day's data changes. It sends no
/// push on its own (`PushSettings.runsSender` off): the day runs its sender's passes
/// (``pushDispatcher(settings:logger:)``) at moments of its own.
final class PhoneDayServer: Sendable {
    /// The destination the widgets show.
    static let destination = "sales"
    /// The entity set that changes during the day.
    static let entitySet = "PhoneDayOrders"
    /// The destination's title, as the demo data has it.
    static let title = "Sales (demo)"
    /// The user `mode`'s app signs in as.
    static func username(_ mode: PhoneDayWidgetMode) -> String { "phone-day-\(mode.rawValue)" }

    /// The users' password on this throwaway server.
    static let password = "phone-day-password"

    /// The hashes of the day's one known password: scrypt at its least cost (N=2^4), as the
    /// server is thrown away with the day and each day of a matrix hashes a few times.
    static let hasher = PasswordHasher(logN: 4)

    /// The server's base URL.
    let url: URL
    private let database: ServerDatabase
    private let secret: SystemSecret
    private let clock: any WallClock
    private let admin: ServerAdministration
    private let group: ServiceGroup
    private let running: Task<Void, Never>

    private init(
        url: URL, database: ServerDatabase, secret: SystemSecret, clock: any WallClock, admin: ServerAdministration, group: ServiceGroup,
        running: Task<Void, Never>
    ) {
        self.url = url
        self.database = database
        self.secret = secret
        self.clock = clock
        self.admin = admin
        self.group = group
        self.running = running
    }

    /// Opens a database in `directory`, seeds it and starts serving on a free local port.
    static func start(in directory: URL, clock: any WallClock, taps: Int = 0, logger: Logger) async throws -> PhoneDayServer {
        let location = DatabaseLocation.sqlite(path: directory.appendingPathComponent("server.sqlite").path)
        guard let port = FreePort.pick(host: "127.0.0.1") else { throw CommandFailure("no free local port for the server") }
        var configuration = TandemServerConfiguration(
            host: "127.0.0.1", port: port, database: location, issuer: "http://127.0.0.1:\(port)", sweepInterval: .seconds(3_600))
        configuration.passwordHasher = hasher
        configuration.push.runsSender = false
        let secret = SystemSecret(current: Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString())
        configuration.systemSecret = secret
        let database = try await ServerDatabase.open(location, logger: logger, clock: clock)
        let admin = ServerAdministration(database: database, passwordHasher: hasher, clock: clock)
        _ = try await admin.seedDemo(password: password)
        // One user per mode's app, each an approver: their taps are their own (the server limits
        // each user's actions), as on three people's phones.
        for mode in PhoneDayWidgetMode.allCases {
            _ = try await admin.createUser(username: username(mode), password: password)
            _ = try await admin.addToGroup(username: username(mode), group: ServerAdministration.demoApproverGroup)
        }
        try await admin.replaceEntitySet(destination: destination, title: Self.title, name: entitySet, rows: rows(version: 0))
        if taps > 0 {
            try await admin.replaceEntitySet(destination: destination, title: Self.title, name: approvals, rows: approvalRows(taps: taps))
        }
        let listening = AsyncStream<Int>.makeStream()
        let app = try await TandemServerApplication.make(configuration: configuration, database: database, logger: logger, clock: clock) { bound in
            listening.continuation.yield(bound)
        }
        let group = ServiceGroup(services: [app], logger: logger)
        let running = Task {
            do {
                try await group.run()
            } catch {
                logger.error("the phone day's server stopped", metadata: ["error": "\(error)"])
            }
            listening.continuation.finish()
        }
        var iterator = listening.stream.makeAsyncIterator()
        guard await iterator.next() != nil else { throw CommandFailure("the phone day's server did not start") }
        guard let url = URL(string: "http://127.0.0.1:\(port)") else { throw CommandFailure("no URL for port \(port)") }
        return PhoneDayServer(url: url, database: database, secret: secret, clock: clock, admin: admin, group: group, running: running)
    }

    /// Gives the demo app an APNs key: from now on each data change owes its registered
    /// devices a push.
    func setAPNsKey(_ key: PhoneDayAPNs.Key) async throws {
        try await admin.setAPNsKey(
            clientID: ServerAdministration.demoClientID, keyID: key.keyID, teamID: key.teamID, bundleID: key.bundleID,
            keyPEM: key.privateKey.pemRepresentation, secret: secret)
    }

    /// The server's push sender, for passes the day runs; `settings` says where APNs is.
    func pushDispatcher(settings: PushSettings, logger: Logger) async throws -> ManualPushDispatcher {
        try await ManualPushDispatcher(database: database, secret: secret, settings: settings, logger: logger, clock: clock)
    }

    /// The server's data changes: the set's rows now say `version`.
    func publish(version: Int) async throws {
        try await admin.replaceEntitySet(
            destination: Self.destination, title: Self.title, name: Self.entitySet, rows: Self.rows(version: version))
    }

    /// Stops serving and closes the database.
    func stop() async {
        await group.triggerGracefulShutdown()
        await running.value
    }

    /// Three orders whose status names the version: "version 3".
    static func rows(version: Int) -> [String] {
        (1...3).map { #"{"OrderID":"PD\#($0)","Status":"version \#(version)"}"# }
    }

    /// The version a widget row shows, from its value "version 3".
    static func version(of value: String) -> Int? {
        guard value.hasPrefix("version ") else { return nil }
        return Int(value.dropFirst("version ".count))
    }

    /// The actionable set the users' taps decide: the demo's approvals, which each mode's user
    /// may decide (the approvers group) and did not request.
    static let approvals = "Approvals"

    /// The day's approvals, one per tap and mode (each mode's app decides its own): `PD-direct-1` …
    /// pending, 120.00 (below the step-up threshold), requested by someone else.
    static func approvalRows(taps: Int) -> [String] {
        PhoneDayWidgetMode.allCases.flatMap { mode in (1...max(taps, 1)).map { approvalRow(mode, $0) } }
    }

    /// The `number`th approval of `mode`'s app, as the day writes it.
    static func approvalRow(_ mode: PhoneDayWidgetMode, _ number: Int) -> String {
        #"{"Amount":"120.00","ApprovalID":"PD-\#(mode.rawValue)-\#(number)","Requester":"pat","Status":"pending","Title":"Phone day approval \#(number)"}"#
    }

    /// The row action of `mode`'s `number`th approval as the widget's row offers it: its ETag is
    /// the server's, made from the row as every actionable row's is (`ItemActionRules.itemTag(row:)`).
    static func approvalAction(_ mode: PhoneDayWidgetMode, _ number: Int) throws -> WidgetRowAction {
        let row = try JSONDecoder().decode([String: JSONValue].self, from: Data(approvalRow(mode, number).utf8))
        let address = ItemAddress(destination: destination, entitySet: approvals, item: "PD-\(mode.rawValue)-\(number)")
        return WidgetRowAction(address, etag: try ItemActionRules.itemTag(row: row), amount: "120.00")
    }

    /// The widget configuration showing the set: order id and status.
    static let widgetConfiguration = DataWidgetConfiguration(
        destination: destination, entitySet: entitySet, limit: 3, keyField: "OrderID", valueField: "Status")
}
