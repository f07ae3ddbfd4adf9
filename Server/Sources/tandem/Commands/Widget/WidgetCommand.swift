import ArgumentParser
import TandemTool

/// `tandem widget …`: plays a widget extension — a process with no passcode and no way to call
/// the host, which meets it only in the shared container under `--dir`'s `shared/` folder.
struct WidgetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget",
        abstract: "Play a widget extension: request data, read snapshots, refresh and use its own grant.",
        subcommands: [
            WidgetRequest.self, WidgetRead.self, WidgetFetch.self, WidgetRefresh.self, WidgetTrack.self, WidgetSendEvents.self,
            WidgetRace.self, WidgetTimeline<ToolNetwork>.self, WidgetConfigure.self, WidgetGalleryCommand.self, WidgetTap.self, WidgetAct.self,
        ]
    )
}
