#if canImport(WidgetKit) && os(iOS)
import Crypto
import Foundation
import Logging
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets
import WidgetKit

/// The host's mirror of the widgets the user has placed: reads
/// `WidgetCenter.shared.getCurrentConfigurations` and keeps the shared container's
/// `WidgetRegistry` (`container.widgets`) in step, so the background flow knows which data
/// to keep fresh, with the same records a Linux host gets from `WidgetInstance`s.
///
/// It manages the kinds it is given: each placed instance of one becomes a record (see
/// ``record(kind:family:configuration:)``), and a record of a managed kind that no placed
/// instance matches any more is removed; records of other kinds are left alone. An instance's
/// configuration is its `DataWidgetIntent` (an `AppIntentConfiguration` widget, iOS 17 SDK) or,
/// for a `StaticConfiguration` widget, the configuration given for its kind; an instance with no
/// data chosen has nothing to keep fresh and gets no record. Two instances of one kind, family
/// and configuration share one record.
///
/// Runs in the host app, which needs the App Groups entitlement
/// (`com.apple.security.application-groups`); sync at launch, on returning to the foreground and
/// before the background flow serves requests.
///
/// ```swift
/// let registry = WidgetCenterRegistry(container: container, kinds: ["orders"],
///                                     staticConfigurations: ["top-customers": customers])
/// try await registry.sync()
/// ```
public struct WidgetCenterRegistry: Sendable {
    /// The container whose registry is kept.
    public let container: SharedContainer
    /// The kinds configured with `DataWidgetIntent`.
    public let kinds: Set<String>
    /// The configuration of each `StaticConfiguration` kind, by kind.
    public let staticConfigurations: [String: DataWidgetConfiguration]
    let logger: Logger

    /// A registry mirroring the instances of `kinds` and of the static kinds into `container`.
    ///
    /// - Parameters:
    ///   - container: The App Group container.
    ///   - kinds: The kinds of the widgets configured with `DataWidgetIntent`.
    ///   - staticConfigurations: The fixed configuration of each `StaticConfiguration` kind.
    ///   - logger: Receives a line for every instance passed over; never a secret.
    public init(
        container: SharedContainer, kinds: Set<String>, staticConfigurations: [String: DataWidgetConfiguration] = [:],
        logger: Logger = Logger(label: "tandem.widgets")
    ) {
        self.container = container
        self.kinds = kinds
        self.staticConfigurations = staticConfigurations
        self.logger = logger
    }

    /// Brings the registry in step with the placed widgets and returns their records, by id.
    ///
    /// - Throws: ``WidgetCenterRegistryError/widgetCenter(reason:)`` when the widgets cannot be
    ///   listed (nothing is changed), ``WidgetCenterRegistryError/registry(_:)`` when the registry
    ///   cannot be listed or written.
    @discardableResult
    public func sync() async throws(WidgetCenterRegistryError) -> [TandemSharedContainer.RegisteredWidget] {
        let listed: Result<[TandemSharedContainer.RegisteredWidget], WidgetCenterRegistryError> = await withCheckedContinuation { continuation in
            WidgetCenter.shared.getCurrentConfigurations { result in
                switch result {
                case .success(let infos): continuation.resume(returning: .success(infos.compactMap(record(of:))))
                case .failure(let error): continuation.resume(returning: .failure(.widgetCenter(reason: "\(error)")))
                }
            }
        }
        switch listed {
        case .success(let records): return try apply(records)
        case .failure(let error): throw error
        }
    }

    /// Writes `placed` (the records of the placed instances) where they differ from the
    /// registry, removes the managed records not among them, and returns `placed` by id.
    func apply(_ placed: [TandemSharedContainer.RegisteredWidget]) throws(WidgetCenterRegistryError) -> [TandemSharedContainer.RegisteredWidget] {
        let wanted = Dictionary(placed.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        do throws(SharedContainerError) {
            let held = try container.widgets.configurations()
            let current = Dictionary(held.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            for record in wanted.values where current[record.id] != record {
                try container.widgets.register(record)
            }
            for record in held where manages(record.kind) && wanted[record.id] == nil {
                try container.widgets.remove(id: record.id)
            }
        } catch {
            throw .registry(error)
        }
        return wanted.values.sorted { $0.id < $1.id }
    }

    /// Whether records of `kind` are this registry's to keep.
    func manages(_ kind: String) -> Bool {
        kinds.contains(kind) || staticConfigurations[kind] != nil
    }

    /// The record of a placed instance, or `nil` (logged) for one of another kind, an unknown
    /// family or no data chosen.
    func record(of info: WidgetInfo) -> TandemSharedContainer.RegisteredWidget? {
        guard manages(info.kind) else { return nil }
        guard let family = TandemWidgetModel.WidgetFamily(info.family) else {
            logger.notice("passing over a widget of a family Tandem does not draw", metadata: ["kind": "\(info.kind)", "family": "\(info.family)"])
            return nil
        }
        guard let configuration = configuration(of: info) else {
            logger.info("passing over a widget with no data chosen", metadata: ["kind": "\(info.kind)"])
            return nil
        }
        return Self.record(kind: info.kind, family: family, configuration: configuration)
    }

    /// The instance's intent's configuration (iOS 17 SDK) or its static kind's.
    private func configuration(of info: WidgetInfo) -> DataWidgetConfiguration? {
        // The guard of DataWidgetIntent.swift, which explains it. Before iOS 17 no widget has an
        // App Intents configuration.
        #if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163)
        if #available(iOS 17.0, *), kinds.contains(info.kind) {
            return info.widgetConfigurationIntent(of: DataWidgetIntent.self)?.configuration
        }
        #endif
        return staticConfigurations[info.kind]
    }

    /// The registry record of an instance of `kind` in `family` showing `configuration`. Its id is
    /// the same for the same three on every run and device, and a file name (`[A-Za-z0-9._-]`):
    /// the kind (other characters as `_`), the family and 16 hex digits of a SHA-256 of all three.
    public static func record(kind: String, family: TandemWidgetModel.WidgetFamily, configuration: DataWidgetConfiguration) -> TandemSharedContainer.RegisteredWidget {
        let parameters = configuration.parameters.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
        // Each part length-prefixed, so no two different lists read as the same text.
        let canonical = ([kind, family.rawValue] + parameters).map { "\($0.utf8.count):\($0)" }.joined()
        let digest = Hex.encode(SHA256.hash(data: Data(canonical.utf8)).prefix(8))
        let readable = String(kind.unicodeScalars.prefix(64).map { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-") ? Character(scalar) : "_"
        })
        return configuration.registration(id: "\(readable)-\(family.rawValue)-\(digest)", kind: kind, family: family)
    }
}
#endif
