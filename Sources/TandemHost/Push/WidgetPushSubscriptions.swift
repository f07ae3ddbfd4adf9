import Foundation
import Logging
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets

/// What the placed widgets show, as the push registration tells the server
/// (``TandemProtocol/PushWidgetSubscription``): read from the shared container's widget registry,
/// which the host keeps (`WidgetCenterRegistry` on iOS), so that the server pushes this device
/// only for changes its widgets show.
///
/// The registry is in the shared container, which anyone may write: a record that does not
/// describe a business widget (``TandemWidgets/DataWidgetConfiguration``) is passed over, and at
/// most ``TandemProtocol/PushWidgetSubscription/maximumCount`` are sent.
///
/// ```swift
/// let widgets = WidgetPushSubscriptions.read(from: container, delivery: .direct)
/// ```
public enum WidgetPushSubscriptions {
    /// One subscription per placed business widget, in the registry's order.
    ///
    /// - Parameters:
    ///   - container: The shared container holding the registry.
    ///   - delivery: How the app's widgets get their rows (``TandemWidgets/DataWidgetMode``):
    ///     `.direct` when they fetch themselves, `.brokered` when the host fetches for them.
    public static func read(
        from container: SharedContainer, delivery: PushWidgetSubscription.Delivery, logger: Logger = Logger(label: "tandem.host")
    ) -> [PushWidgetSubscription] {
        let records: [RegisteredWidget]
        do {
            records = try container.widgets.configurations()
        } catch {
            logger.notice("the widget registry cannot be read; registering no widgets", metadata: ["error": "\(error)"])
            return []
        }
        let subscriptions = records.compactMap { record -> PushWidgetSubscription? in
            guard let family = WidgetFamily(rawValue: record.family),
                  let configuration = try? DataWidgetConfiguration(parameters: record.parameters)
            else { return nil }
            return subscription(for: configuration, family: family, delivery: delivery)
        }
        return Array(subscriptions.sorted { ($0.destination, $0.entitySet, $0.rows) < ($1.destination, $1.entitySet, $1.rows) }
            .prefix(PushWidgetSubscription.maximumCount))
    }

    /// What a widget of `family` showing `configuration` shows: the first rows it has room
    /// for, and its key and value fields (every field when either is chosen by the data).
    public static func subscription(
        for configuration: DataWidgetConfiguration, family: WidgetFamily, delivery: PushWidgetSubscription.Delivery
    ) -> PushWidgetSubscription {
        var fields: [String] = []
        if let key = configuration.keyField, let value = configuration.valueField { fields = [key, value] }
        let rows = min(configuration.limit, family.rowCapacity, PushWidgetSubscription.maximumRows)
        return PushWidgetSubscription(
            destination: configuration.destination, entitySet: configuration.entitySet, rows: max(1, rows), fields: fields, delivery: delivery)
    }
}
