import Foundation
import TandemPlatform
import TandemWidgetModel
import TandemWidgetSimulator
import TandemWidgets

/// A provider whose timelines a test scripts, recording when it was asked.
///
/// The script gets the request's configuration, the clock's time and how many timelines were
/// asked for before, and returns the timeline.
final class ScriptedProvider: WidgetProvider {
    typealias Script = @Sendable (_ configuration: OrdersConfiguration, _ now: Date, _ call: Int) -> Timeline<WidgetContentEntry>

    let clock: VirtualClock
    private let script: Script
    private let calls = Locked<[(date: Date, configuration: OrdersConfiguration, family: WidgetFamily)]>([])

    init(clock: VirtualClock, script: @escaping Script) {
        self.clock = clock
        self.script = script
    }

    /// When the provider was asked for a timeline, in order.
    var timelineRequests: [Date] { calls.withLock { $0.map(\.date) } }
    /// The configurations it was asked for, in order.
    var requestedConfigurations: [OrdersConfiguration] { calls.withLock { $0.map(\.configuration) } }

    func placeholder(in context: WidgetContext) -> WidgetContentEntry {
        WidgetContentEntry(date: clock.now, content: .rows(0, state: .fresh))
    }

    func snapshot(for configuration: OrdersConfiguration, in context: WidgetContext) async -> WidgetContentEntry {
        placeholder(in: context)
    }

    func timeline(for configuration: OrdersConfiguration, in context: WidgetContext) async -> Timeline<WidgetContentEntry> {
        let now = clock.now
        let call = calls.withLock { calls in
            calls.append((now, configuration, context.family))
            return calls.count - 1
        }
        return script(configuration, now, call)
    }
}

extension WidgetContent {
    /// Content with `count` numbered rows in `state`.
    static func rows(_ count: Int, state: WidgetState) -> WidgetContent {
        WidgetContent(
            title: "Orders",
            rows: (0..<count).map { WidgetRow(key: "Row \($0 + 1)", value: "\($0)") },
            state: state,
            footer: WidgetFooter.text(for: state)
        )
    }
}

extension WidgetContentEntry {
    /// A fresh entry of `count` rows at `date`.
    static func fresh(_ count: Int, at date: Date) -> WidgetContentEntry {
        WidgetContentEntry(date: date, content: .rows(count, state: .fresh))
    }
}
