#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One placed widget in a push registration (``PushDeviceTokensDocument/widgets``): which entity
/// set it shows and how much of it, so that the server pushes a device only when something its
/// widgets show changed.
///
/// A change of the set sends the device a WidgetKit push when a ``Delivery/direct`` widget shows
/// it (the widget fetches on the reload), and wakes the host with a background push when a
/// ``Delivery/brokered`` widget shows it (the host fetches for the widget); a change that leaves
/// the first ``rows`` rows' ``fields`` as they were sends nothing.
///
/// ```swift
/// PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 3, fields: ["OrderID", "Status"], delivery: .direct)
/// ```
public struct PushWidgetSubscription: Codable, Sendable, Hashable {
    /// How the widget gets its rows.
    public enum Delivery: String, Codable, Sendable, Hashable, CaseIterable {
        /// The widget fetches them itself: a WidgetKit push reload is enough.
        case direct
        /// The host fetches them for the widget: the host must be woken.
        case brokered
    }

    /// The most widgets one registration names.
    public static let maximumCount = 64
    /// The most rows a widget is said to show (a timeline holds a dozen at most).
    public static let maximumRows = 100
    /// The most fields a widget is said to show.
    public static let maximumFields = 16

    /// The destination's name.
    public var destination: String
    /// The entity set's name.
    public var entitySet: String
    /// How many of the set's first rows the widget shows (1…``maximumRows``).
    public var rows: Int
    /// The fields of those rows it shows; empty for every field.
    public var fields: [String]
    /// How the widget gets its rows.
    public var delivery: Delivery

    /// A widget showing the first `rows` rows' `fields` of `destination`/`entitySet`.
    public init(destination: String, entitySet: String, rows: Int, fields: [String] = [], delivery: Delivery) {
        self.destination = destination
        self.entitySet = entitySet
        self.rows = rows
        self.fields = fields
        self.delivery = delivery
    }

    enum CodingKeys: String, CodingKey {
        case destination
        case entitySet = "entity_set"
        case rows
        case fields
        case delivery
    }
}
