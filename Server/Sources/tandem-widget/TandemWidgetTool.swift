import ArgumentParser
import TandemTool

/// `tandem-widget`: the business widget as its own small binary, linked the way a widget
/// extension target is: the SDK's widget, widget-model, rendering and shared-container modules; no vault database, no server, no network stack.
/// It is what `make bench` measures against iOS's memory limit for widget extensions (about
/// 30 MB); `tandem widget` has the same commands inside the full tool.
@main
struct TandemWidgetTool: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tandem-widget",
        abstract: "The business widget as a small process of its own: its timeline from the shared container (brokered mode), and taps on its action buttons.",
        subcommands: [WidgetTimeline<NoWidgetNetwork>.self, WidgetAct.self]
    )

    /// Runs the command the arguments name (see `ToolEntry`).
    static func main() async {
        await ToolEntry.run(TandemWidgetTool.self)
    }
}
