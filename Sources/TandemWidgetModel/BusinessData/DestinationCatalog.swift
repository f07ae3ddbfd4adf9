#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// The destinations and entity sets a business widget can show, as the server's
/// `GET /v1/destinations` lists them: what a widget's configuration UI offers.
///
/// The widget cannot ask the server in brokered mode, so the host fetches the listing and
/// caches it in the shared container, sealed (see `write(to:share:)`); widgets read it back
/// with `read(from:share:logger:)`.
///
/// ```swift
/// // The host, after sign-in and in its background run:
/// let catalog = try await DestinationCatalog.fetch(with: client, credentials: .tokens(coordinator))
/// try catalog.write(to: container, share: share)
/// // The widget's configuration UI:
/// let choices = try DestinationCatalog.read(from: container, share: share)?.options ?? []
/// ```
public struct DestinationCatalog: Codable, Hashable, Sendable {
    /// A destination (a business system) and its entity sets.
    public struct Destination: Codable, Hashable, Sendable {
        /// The name used in requests, such as `sales`.
        public var name: String
        /// The title shown to people, such as "Sales (demo)".
        public var title: String
        /// Its entity sets, in the server's order.
        public var entitySets: [EntitySet]

        /// A destination `name` titled `title` with `entitySets`.
        public init(name: String, title: String, entitySets: [EntitySet]) {
            self.name = name
            self.title = title
            self.entitySets = entitySets
        }
    }

    /// An entity set of a destination.
    public struct EntitySet: Codable, Hashable, Sendable {
        /// The name used in requests, such as `SalesOrders`.
        public var name: String
        /// How many rows it held when the listing was fetched; nil when the server does not
        /// know (a set read from a customer's backend, per user).
        public var count: Int?

        /// An entity set `name` of `count` rows.
        public init(name: String, count: Int?) {
            self.name = name
            self.count = count
        }
    }

    /// One choice a configuration UI shows: an entity set of a destination.
    public struct Option: Hashable, Sendable {
        /// The destination's name.
        public var destination: String
        /// The entity set's name.
        public var entitySet: String
        /// What the choice is called: "Sales (demo) · SalesOrders".
        public var title: String
        /// How many rows the entity set held; nil when the server does not know.
        public var count: Int?

        /// The configuration this choice makes, with `limit` rows.
        public func configuration(limit: Int = DataWidgetConfiguration.defaultLimit) -> DataWidgetConfiguration {
            DataWidgetConfiguration(destination: destination, entitySet: entitySet, limit: limit)
        }
    }

    /// The destinations, in the server's order (sorted by name).
    public var destinations: [Destination]
    /// When the host fetched the listing.
    public var fetchedAt: Date
    /// The app's Lock Screen policy, from the server's configuration: the families whose rows
    /// the widgets hide while the phone is locked. Published with the listing because it is what
    /// the host tells its widgets about the app, sealed so that no other process can relax it.
    public var lockScreen: LockScreenRedaction
    /// The app's action policy, from the server's configuration: which amounts the widgets send
    /// to the app for the user to confirm. A hint for the widget's buttons only: the host and the
    /// server apply their own copy.
    public var actionPolicy: ActionPolicyDocument

    /// A catalog of `destinations` fetched at `fetchedAt`, under the Lock Screen policy
    /// `lockScreen` and the action policy `actionPolicy`.
    public init(
        destinations: [Destination], fetchedAt: Date, lockScreen: LockScreenRedaction = .accessoryFamilies,
        actionPolicy: ActionPolicyDocument = .default
    ) {
        self.destinations = destinations
        self.fetchedAt = fetchedAt
        self.lockScreen = lockScreen
        self.actionPolicy = actionPolicy
    }

    /// Decodes a catalog; one written before the Lock Screen policy was published has the
    /// default, ``LockScreenRedaction/accessoryFamilies``, and one without an action policy the default one.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        destinations = try container.decode([Destination].self, forKey: .destinations)
        fetchedAt = try container.decode(Date.self, forKey: .fetchedAt)
        lockScreen = try container.decodeIfPresent(LockScreenRedaction.self, forKey: .lockScreen) ?? .accessoryFamilies
        actionPolicy = try container.decodeIfPresent(ActionPolicyDocument.self, forKey: .actionPolicy) ?? .default
    }

    private enum CodingKeys: String, CodingKey {
        case destinations, fetchedAt, lockScreen, actionPolicy
    }

    /// The catalog of a `/v1/destinations` response body (a `DestinationListing`).
    ///
    /// - Throws: ``DataWidgetError/undecodableListing(reason:)`` when the body has another shape.
    public init(listing json: Data, fetchedAt: Date) throws(DataWidgetError) {
        do {
            let listing = try JSONDecoder().decode(DestinationListing.self, from: json)
            self.init(destinations: listing.destinations.map { destination in
                Destination(name: destination.name, title: destination.title, entitySets: destination.entitySets.map {
                    EntitySet(name: $0.name, count: $0.count)
                })
            }, fetchedAt: fetchedAt)
        } catch {
            throw .undecodableListing(reason: "\(type(of: error)) \(String(describing: error).prefix(120))")
        }
    }

    /// Every entity set of every destination, as a configuration UI lists them.
    public var options: [Option] {
        destinations.flatMap { destination in
            destination.entitySets.map {
                Option(destination: destination.name, entitySet: $0.name, title: "\(destination.title) · \($0.name)", count: $0.count)
            }
        }
    }

    /// Whether `configuration` names an entity set this catalog lists (a choice that is still offered).
    public func offers(_ configuration: DataWidgetConfiguration) -> Bool {
        options.contains { $0.destination == configuration.destination && $0.entitySet == configuration.entitySet }
    }
}
