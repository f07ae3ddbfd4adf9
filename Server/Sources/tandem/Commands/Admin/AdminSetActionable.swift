import ArgumentParser
import TandemProtocol
import TandemServer
import TandemTool

/// `tandem admin set-actionable`: makes an entity set actionable — its items can be approved or
/// rejected (`POST /v1/destinations/…/{item}/actions/{action}`) — under its own rules: the row
/// field that names an item, the apps whose hosts may act, who may decide (a field of the item
/// naming its approvers, or a group), the field naming an item's requester (who may never decide
/// it), and the step-up threshold. Its rows get a `Status` (when absent) and a server-computed
/// `ETag`.
struct AdminSetActionable: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-actionable", abstract: "Let the approvers of an entity set approve or reject its items through some apps.")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The destination's name.")
    var destination: String

    @Option(name: .long, help: "The entity set's name.")
    var entitySet: String

    @Option(name: .long, help: "The row field naming an item, a string unique within the set, e.g. ApprovalID.")
    var idField: String

    @Option(name: .long, help: "The client id of an app whose signed-in users' hosts may act on the items (repeatable; at least one).")
    var app: [String] = []

    @Option(name: .long, help: "The row field naming who may decide an item: a username, or an array of usernames.")
    var approversField: String?

    @Option(name: .long, help: "The group whose members may decide the items (tandem admin set-group).")
    var approverGroup: String?

    @Option(name: .long, help: "The row field naming who asked for an item (a username), who may never decide it.")
    var requesterField: String?

    @Option(name: .long, help: "Decisions on items above this amount need the user present (a step-up), e.g. 1000.00.")
    var stepUpAbove = "1000.00"

    @Option(name: .long, help: "The row field holding an item's amount.")
    var amountField = "Amount"

    func validate() throws {
        guard !app.isEmpty else { throw ValidationError("name at least one --app whose host may act on the items") }
        guard (approversField == nil) != (approverGroup == nil) else {
            throw ValidationError("say who may decide: --approvers-field or --approver-group (one of them)")
        }
        guard let threshold = ActionPolicyDocument.decimal(stepUpAbove), threshold >= 0 else {
            throw ValidationError("--step-up-above must be a non-negative decimal such as 1000.00")
        }
    }

    func run() async throws {
        let approvers: ApproverRule = approversField.map { .field($0) } ?? .group(approverGroup ?? "")
        let set = ActionableSet(
            destination: destination, entitySet: entitySet, idField: idField, apps: Set(app), approvers: approvers,
            requesterField: requesterField,
            stepUp: ActionPolicyDocument(stepUpAbove: ActionPolicyDocument.decimal(stepUpAbove) ?? 0, amountField: amountField))
        let changed = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).setActionable(set)
        }
        print("\(destination)/\(entitySet) is actionable by \(idField) through \(app.sorted().joined(separator: ", ")), "
            + "decided by \(approvers)\(requesterField.map { ", never by the \($0)" } ?? ""), "
            + "step-up above \(ActionPolicyDocument.text(of: set.stepUp.stepUpAbove))"
            + (changed ? "; its rows now carry Status and ETag" : ""))
    }
}
