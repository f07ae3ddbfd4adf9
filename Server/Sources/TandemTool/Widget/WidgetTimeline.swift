import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgetRendering
import TandemWidgets

/// `tandem widget timeline`: what a business widget shows now, produced the way WidgetKit asks
/// for it: a `DataWidgetProvider` reads the host's status and the sealed snapshot from the
/// shared container (writing a data request in brokered mode, fetching with its own grant in
/// direct mode) and returns a timeline. Prints the first entry as a box in the terminal, or as
/// JSON with `--json`, and writes its SVG with `--svg`.
///
/// `Network` supplies the client direct mode fetches with: `tandem` links URLSession,
/// `tandem-widget` (the widget as its own small binary) links no network stack and refuses
/// `--mode direct`.
public struct WidgetTimeline<Network: WidgetNetwork>: AsyncParsableCommand {
    public static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: "timeline", abstract: "Show the business widget's timeline as a person would see it.")
    }

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var widget: WidgetInstanceOptions

    @Option(name: .long, help: "brokered (the host fetches; default) or direct (the widget fetches with its own grant).")
    var mode: WidgetModeOption = .brokered

    @Option(name: .long, help: "Seconds the rows stay fresh, at most (default 2400, as on a phone); direct mode writes its snapshot with this lifetime.")
    var freshness: Double = DataWidgetSchedule.defaultFreshness

    @Option(name: .long, help: "Also write the first entry's SVG to this file.")
    var svg: String?

    @Flag(name: .long, help: "Print one JSON object instead of the box.")
    var json = false

    @Option(name: .long, help: "The app's URL scheme, as an extension has it in its Info.plist (default: the one the host saved).")
    var scheme: String?

    @Option(name: .long, help: "Seconds after which direct mode fetches fresh rows again on a reload (a widget updated by push).")
    var revalidate: Double?

    @Option(name: .long, help: "Play WidgetKit push updates with the APNs stand-in's devices folder: register the widgets' push token (left sealed in the shared container for the host to register), print the timeline as JSON, and again after each push, until stopped.")
    var followPushes: String?

    public init() {}

    public func run() async throws {
        guard freshness.isFinite, freshness >= 1 else { throw ValidationError("--freshness takes a number of seconds, at least 1") }
        let home = try home.home()
        let configuration = try widget.configuration(in: home)
        if let revalidate { guard revalidate.isFinite, revalidate >= 0 else { throw ValidationError("--revalidate takes a number of seconds") } }
        let provider = DataWidgetProvider(
            kind: widget.kind, scheme: try scheme ?? home.urlScheme(), container: home.container,
            credentials: SharedSecretCredentials(storage: home.sharedSecrets, vaultName: home.vaultName),
            mode: mode == .direct ? .direct(try Network.client(try home.clientConfiguration(), role: "widget")) : .brokered,
            schedule: DataWidgetSchedule(freshness: freshness, revalidation: revalidate),
            logger: ToolLogger.make(label: "tandem.widgets"))
        let context = WidgetContext(family: widget.family)
        if let followPushes {
            try await follow(provider, configuration: configuration, context: context, home: home, devices: URL(fileURLWithPath: followPushes))
            return
        }
        let timeline = await provider.timeline(for: configuration, in: context)
        guard let first = timeline.entries.first else { throw CommandFailure("the provider returned an empty timeline") }
        if let svg {
            try Data(WidgetRenderer().svg(first.content, family: widget.family).utf8).write(to: URL(fileURLWithPath: svg), options: .atomic)
        }
        if json {
            JSONLine.print(Self.describe(timeline, configuration: configuration))
        } else {
            print(WidgetRenderer().terminalBox(first.content, family: widget.family))
            print("\(timeline.entries.count) entr\(timeline.entries.count == 1 ? "y" : "ies"), reload \(Self.describe(timeline.policy))")
        }
    }

    /// `--follow-pushes`: what WidgetKit does for a widget with a push handler. The widgets'
    /// token is registered (kept sealed in the shared container, where the host finds it), the
    /// timeline printed, and printed again after each push that arrives.
    private func follow(
        _ provider: DataWidgetProvider, configuration: DataWidgetConfiguration, context: WidgetContext, home: ExtensionHome, devices: URL
    ) async throws {
        guard let sealingKey = try SharedSealingKey.load(from: home.sharedSecrets) else {
            throw CommandFailure("extension access is not enabled: the host has not armed the widgets yet")
        }
        let known = try? home.container.widgetPushToken.read(sealingKey: sealingKey)
        let device = try SimulatedAPNsDevice.register(in: devices, reusing: known ?? nil)
        if known ?? nil != device.token {
            try home.container.widgetPushToken.write(device.token, sealingKey: sealingKey)
        }
        JSONLine.print(["widget": "following", "push_token": Hex.encode(device.token)])
        var seen = device.inbox.names()
        var reloads = 0
        var trigger = "start"
        while !Task.isCancelled {
            let timeline = await provider.timeline(for: configuration, in: context)
            reloads += 1
            var line = Self.describe(timeline, configuration: configuration)
            line["reload"] = reloads
            line["trigger"] = trigger
            JSONLine.print(line)
            guard await device.inbox.waitForArrival(besides: seen, upTo: .seconds(24 * 3600)) else { continue }
            seen = device.inbox.names()
            trigger = "push"
        }
    }

    /// The timeline as `--json` prints it: the configuration, each entry's state, rows and footer,
    /// and the reload policy.
    private static func describe(_ timeline: Timeline<WidgetContentEntry>, configuration: DataWidgetConfiguration) -> [String: Any] {
        let entries: [[String: Any]] = timeline.entries.map { entry in
            [
                "date": ISO8601Time.string(from: entry.date, fractionalSeconds: false), "state": entry.content.state.name,
                "summary": entry.content.summary, "rows": entry.content.rows.map(describe),
                "footer": entry.content.footer,
            ]
        }
        return [
            "destination": configuration.destination, "entitySet": configuration.entitySet, "limit": configuration.limit,
            "entries": entries, "policy": describe(timeline.policy),
        ]
    }

    /// A row as `--json` prints it: key and value, and for an item that can be acted on, its
    /// item id, the buttons it shows and the state of its last action.
    private static func describe(_ row: WidgetRow) -> [String: Any] {
        var line: [String: Any] = ["key": row.key, "value": row.value]
        if let action = row.action {
            line["item"] = action.item
            line["actions"] = row.visibleActions.map(\.rawValue)
            if action.needsApp { line["needs_app"] = true }
        }
        if let state = row.actionState {
            line["action_state"] = state.name
            line["action_label"] = state.label
        }
        return line
    }

    /// The reload policy in words: `at end`, `never` or `after <ISO 8601 date>`.
    private static func describe(_ policy: ReloadPolicy) -> String {
        switch policy {
        case .atEnd: "at end"
        case .never: "never"
        case .after(let date): "after \(ISO8601Time.string(from: date, fractionalSeconds: false))"
        }
    }
}

/// `--mode` of `tandem widget timeline`.
public enum WidgetModeOption: String, ExpressibleByArgument, CaseIterable {
    case brokered
    case direct
}
