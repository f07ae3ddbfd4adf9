import ArgumentParser
import Foundation
import TandemSharedContainer
import TandemTool

/// `tandem widget track`: queues an analytics event in the shared container, as a widget does
/// when it renders or reloads. The host sends the queue with its own token (``HostFlushEvents``).
struct WidgetTrack: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "track", abstract: "Queue an analytics event for the host to send.")

    @OptionGroup var home: ExtensionOptions

    @Option(name: .long, help: "The event's name.")
    var name = "widget.reload"

    @Option(name: .long, help: "The widget kind, such as sales-orders.")
    var kind: String

    @Option(name: .long, help: "The widget family, such as systemSmall.")
    var family: String

    @Option(name: .long, help: "The widget's configuration, such as sales/SalesOrders.")
    var configuration: String?

    func run() async throws {
        var properties = ["kind": kind, "family": family]
        properties["configuration"] = configuration
        let event = QueuedEvent(name: name, properties: properties)
        let home = try home.home()
        try home.container.events.enqueue(event, sealingKey: home.extensionCredentials().sealingKey)
        JSONLine.print(["queued": event.id])
    }
}
