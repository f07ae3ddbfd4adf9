import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets

/// `tandem widget act`: plays a tap on a row's Approve or Reject button, as the widget's App
/// Intent does on a phone. The row is looked up in what the widget shows now (its timeline's
/// first entry); a sealed action request for its item, with the ETag shown, is written to the
/// shared container, and the command prints the row's new state (`pending`). The host
/// (`tandem host run`) wakes on the request and executes it with its own grant.
///
/// With `--wait`, it waits for the host's result and prints the row as the reloaded widget
/// shows it (`done`, `conflict`, `needs app`, `refused`, `expired`), with the seconds from the tap.
public struct WidgetAct: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "act", abstract: "Tap a row's Approve or Reject button, as the widget's intent does.")
    }

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var widget: WidgetInstanceOptions

    @Option(name: .long, help: "The row: its item id (such as PR-1003) or the key the widget shows.")
    var row: String

    @Option(name: .long, help: "approve or reject.")
    var action: ItemAction

    @Option(name: .long, help: "Where the tap happens: widget, control, shortcut or app (for analytics).")
    var surface: ActionSurface = .widget

    @Option(name: .long, help: "Seconds the host may take before the request expires.")
    var lifetime: Double = ActionRequest.defaultLifetime

    @Option(name: .long, help: "Wait up to this many seconds for the host's result, then print the row as the widget shows it.")
    var wait: Double?

    public init() {}

    public func validate() throws {
        guard lifetime.isFinite, lifetime > 0 else { throw ValidationError("--lifetime takes a positive number of seconds") }
        if let wait { guard wait.isFinite, wait >= 0 else { throw ValidationError("--wait takes a number of seconds") } }
    }

    public func run() async throws {
        let home = try home.home()
        let configuration = try widget.configuration(in: home)
        let credentials = SharedSecretCredentials(storage: home.sharedSecrets, vaultName: home.vaultName)
        let provider = DataWidgetProvider(
            kind: widget.kind, scheme: try home.urlScheme(), container: home.container, credentials: credentials,
            logger: ToolLogger.make(label: "tandem.widgets"))
        let context = WidgetContext(family: widget.family)
        let shown = try await Self.row(row, of: provider, configuration: configuration, context: context)
        guard let target = shown.action else {
            throw CommandFailure("row \(row.debugDescription) is not an item that can be acted on")
        }
        let tapped = Date()
        let submitted = Result { () throws(WidgetActionError) -> ActionRequest in
            try WidgetActionSubmitter(container: home.container, credentials: credentials, lifetime: lifetime)
                .submit(action, on: target, surface: surface, family: widget.family.rawValue)
        }
        let request: ActionRequest
        switch submitted {
        case .success(let written): request = written
        case .failure(.notOffered):
            throw CommandFailure("row \(row.debugDescription) offers no \(action.rawValue) now (\(shown.actionState?.label ?? "decided"))")
        case .failure(let error): throw CommandFailure(error.description)
        }
        let pending = try await Self.row(row, of: provider, configuration: configuration, context: context)
        JSONLine.print(Self.describe(pending, request: request, extra: ["widget": "acted"]))
        guard let wait else { return }
        let sealingKey = try home.extensionCredentials().sealingKey
        let deadline = tapped.addingTimeInterval(wait)
        // A result of this request, not one left by an earlier request with the same id.
        while (home.container.actions.result(id: request.id, sealingKey: sealingKey)?.at).map({ $0 < request.createdAt }) ?? true {
            guard Date() < deadline else { throw CommandFailure("no result from the host within \(wait) s: is `tandem host run` running?") }
            try await Task.sleep(for: .milliseconds(10))
        }
        let answered = Date().timeIntervalSince(tapped)
        let reloaded = try await Self.row(row, of: provider, configuration: configuration, context: context)
        JSONLine.print(Self.describe(reloaded, request: request, extra: ["widget": "reloaded", "seconds": answered]))
    }

    /// The row `name` (its item id, else its key) in the first entry of `provider`'s timeline.
    static func row(
        _ name: String, of provider: DataWidgetProvider, configuration: DataWidgetConfiguration, context: WidgetContext
    ) async throws -> WidgetRow {
        let timeline = await provider.timeline(for: configuration, in: context)
        let rows = timeline.entries.first?.content.rows ?? []
        guard let found = rows.first(where: { $0.action?.item == name }) ?? rows.first(where: { $0.key == name }) else {
            let state = timeline.entries.first?.content.summary ?? "no entry"
            throw CommandFailure("the widget shows no row \(name.debugDescription) (\(state)): fetch its rows first")
        }
        return found
    }

    /// One JSON line about `row` and `request`.
    static func describe(_ row: WidgetRow, request: ActionRequest, extra: [String: Any]) -> [String: Any] {
        var line = extra
        line["request"] = String(request.id.prefix(12))
        line["item"] = request.draft.item
        line["action"] = request.draft.action.rawValue
        line["row"] = ["key": row.key, "value": row.value]
        line["state"] = row.actionState?.name ?? "none"
        if let label = row.actionState?.label { line["label"] = label }
        line["actions"] = row.visibleActions.map(\.rawValue)
        return line
    }
}

extension ItemAction: @retroactive ExpressibleByArgument {}
extension ActionSurface: @retroactive ExpressibleByArgument {}
