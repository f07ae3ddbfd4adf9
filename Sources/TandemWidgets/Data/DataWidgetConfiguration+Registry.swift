import Logging
import TandemSharedContainer
import TandemWidgetModel

/// The configuration as the shared container's widget registry holds it: string parameters
/// (`destination`, `entitySet`, `limit`, `keyField`, `valueField`), one record per instance.
extension DataWidgetConfiguration {
    /// The registry parameters of this configuration.
    public var parameters: [String: String] {
        var parameters = ["destination": destination, "entitySet": entitySet, "limit": String(limit)]
        parameters["keyField"] = keyField
        parameters["valueField"] = valueField
        return parameters
    }

    /// The configuration the registry parameters describe.
    ///
    /// - Throws: `DataWidgetError/invalidConfiguration(reason:)` when the destination or the
    ///   entity set is missing or empty, or the limit is not a whole number from 1 to 500.
    public init(parameters: [String: String]) throws(DataWidgetError) {
        guard let destination = parameters["destination"], !destination.isEmpty else { throw .invalidConfiguration(reason: "no destination") }
        guard let entitySet = parameters["entitySet"], !entitySet.isEmpty else { throw .invalidConfiguration(reason: "no entity set") }
        let limit = parameters["limit"].map { Int($0) } ?? Self.defaultLimit
        guard let limit, (1...Self.maximumLimit).contains(limit) else { throw .invalidConfiguration(reason: "the limit is not 1 to \(Self.maximumLimit)") }
        self.init(destination: destination, entitySet: entitySet, limit: limit, keyField: parameters["keyField"], valueField: parameters["valueField"])
    }

    /// The registry record of an instance `id` of `kind` in `family` showing this configuration.
    ///
    /// ```swift
    /// try container.widgets.register(orders.registration(id: "orders-1", kind: "orders", family: .systemMedium))
    /// ```
    public func registration(id: String, kind: String, family: WidgetFamily) -> RegisteredWidget {
        RegisteredWidget(id: id, kind: kind, family: family.rawValue, parameters: parameters)
    }

    /// The installed instances of `kind`, read from the container's registry: the portable
    /// `getCurrentConfigurations`. A record of another kind is passed over; one whose family or
    /// parameters do not decode is skipped with a log line.
    ///
    /// - Throws: `SharedContainerError/io(_:)` when the registry cannot be listed.
    public static func instances(
        ofKind kind: String, in container: SharedContainer, logger: Logger = Logger(label: "tandem.widgets")
    ) throws(SharedContainerError) -> [WidgetInstance<DataWidgetConfiguration>] {
        try container.widgets.configurations().filter { $0.kind == kind }.compactMap { record in
            guard let family = WidgetFamily(rawValue: record.family) else {
                logger.warning("skipping a widget instance of an unknown family", metadata: ["id": "\(record.id)", "family": "\(record.family)"])
                return nil
            }
            do throws(DataWidgetError) {
                return WidgetInstance(kind: kind, family: family, configuration: try DataWidgetConfiguration(parameters: record.parameters))
            } catch {
                logger.warning("skipping a widget instance", metadata: ["id": "\(record.id)", "error": "\(error)"])
                return nil
            }
        }
    }
}
