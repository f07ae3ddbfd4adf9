#if canImport(AppIntents) && os(iOS)
import AppIntents
import Foundation
import TandemWidgetModel

/// An entity set of a destination, as a business widget's configuration offers it: the App
/// Intents value behind ``DataWidgetIntent``'s choice of data.
///
/// Its identifier spells the destination and the entity set (each percent-encoded, joined by
/// `/`), so a widget keeps its choice when the catalog cannot be read (the device is locked) or
/// no longer lists it. Its query, ``Query``, offers the choices of ``DataWidgetCatalog``.
public struct EntitySetEntity: AppEntity {
    /// The destination, such as `sales`.
    public var destination: String
    /// The entity set, such as `SalesOrders`.
    public var entitySet: String
    /// What the choice is called: "Sales (demo) · SalesOrders".
    public var title: String
    /// How many rows the entity set held when the catalog was fetched, if known.
    public var count: Int?

    /// A choice of `entitySet` in `destination`; the title defaults to "SalesOrders · sales".
    public init(destination: String, entitySet: String, title: String? = nil, count: Int? = nil) {
        self.destination = destination
        self.entitySet = entitySet
        self.title = title ?? DataWidgetConfiguration(destination: destination, entitySet: entitySet).title
        self.count = count
    }

    /// The choice a catalog option describes.
    public init(_ option: DestinationCatalog.Option) {
        self.init(destination: option.destination, entitySet: option.entitySet, title: option.title, count: option.count)
    }

    /// The choice `identifier` names, or `nil` when it is not an identifier of this type.
    public init?(identifier: String) {
        let parts = identifier.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let destination = parts[0].removingPercentEncoding, let entitySet = parts[1].removingPercentEncoding,
              !destination.isEmpty, !entitySet.isEmpty else { return nil }
        self.init(destination: destination, entitySet: entitySet)
    }

    /// The identifier: destination and entity set, percent-encoded, joined by `/`.
    public var id: String { "\(Self.escape(destination))/\(Self.escape(entitySet))" }

    /// The widget configuration showing `limit` rows of this entity set (clamped to 1…500).
    public func configuration(limit: Int = DataWidgetConfiguration.defaultLimit) -> DataWidgetConfiguration {
        DataWidgetConfiguration(destination: destination, entitySet: entitySet, limit: limit)
    }

    /// "Data", as the configuration calls the parameter's type.
    public static var typeDisplayRepresentation: TypeDisplayRepresentation { "Data" }

    /// The title, and the row count when known.
    public var displayRepresentation: DisplayRepresentation {
        DisplayRepresentation(title: "\(title)", subtitle: count.map { "\($0) rows" })
    }

    /// The query the system asks for choices and to resolve stored identifiers.
    public static var defaultQuery: Query { Query() }

    /// `text` with everything but ASCII letters, digits and `-._~` percent-encoded.
    private static func escape(_ text: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    // MARK: - Query

    /// The choices of ``DataWidgetCatalog`` (install it when the extension starts); the system
    /// creates it with `init()`.
    public struct Query: EntityQuery {
        /// A query over the installed catalog.
        public init() {}

        /// The entities `identifiers` name, titled from the catalog when it lists them; an
        /// identifier of another form is dropped.
        public func entities(for identifiers: [String]) async throws -> [EntitySetEntity] {
            let offered = Dictionary(Self.offered().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            return identifiers.compactMap { offered[$0] ?? EntitySetEntity(identifier: $0) }
        }

        /// Every entity set the catalog lists; none when it cannot be read.
        public func suggestedEntities() async throws -> [EntitySetEntity] {
            Self.offered()
        }

        /// The first choice, so a widget just added shows data without being edited.
        public func defaultResult() async -> EntitySetEntity? {
            Self.offered().first
        }

        /// The catalog's choices, each identifier once.
        private static func offered() -> [EntitySetEntity] {
            var seen = Set<String>()
            return DataWidgetCatalog.options().map(EntitySetEntity.init).filter { seen.insert($0.id).inserted }
        }
    }
}
#endif
