import Foundation
import ArgumentParser

/// What a widget shows: one page of an entity set of a destination. It is the key of the
/// widget's data request and of the snapshot that answers it.
struct EntitySetKey: Codable, Hashable, Sendable {
    /// The request kind entity-set pages are asked for under.
    static let kind = "entity-set"

    /// The destination, such as `sales`.
    var destination: String
    /// The entity set, such as `SalesOrders`.
    var entitySet: String
    /// How many rows the page holds.
    var limit: Int

    /// The resource path under the server's `/v1/destinations`, percent-encoded.
    var resourcePath: String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))
        let destination = destination.addingPercentEncoding(withAllowedCharacters: allowed) ?? destination
        let entitySet = entitySet.addingPercentEncoding(withAllowedCharacters: allowed) ?? entitySet
        return "/v1/destinations/\(destination)/\(entitySet)?limit=\(limit)"
    }
}

/// `--destination`, `--entity-set` and `--limit`: the page a widget command is about.
struct EntitySetOptions: ParsableArguments {
    @Option(name: .long, help: "The destination, such as sales.")
    var destination: String

    @Option(name: .long, help: "The entity set, such as SalesOrders.")
    var entitySet: String

    @Option(name: .long, help: "Rows in the page (1 to 200).")
    var limit = 20

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit must be between 1 and 200") }
    }

    /// The request and snapshot key these options name.
    var key: EntitySetKey { EntitySetKey(destination: destination, entitySet: entitySet, limit: limit) }
}
