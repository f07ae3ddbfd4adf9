import ArgumentParser
import Foundation
import TandemWidgetModel
import TandemWidgets

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
