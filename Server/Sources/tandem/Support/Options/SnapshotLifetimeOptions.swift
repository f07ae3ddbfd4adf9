import ArgumentParser
import Foundation
import TandemWidgets

/// `--snapshot-lifetime`: how long rows the background flow fetches for the widgets count as
/// fresh. A widget shows older rows as stale and asks for new ones.
struct SnapshotLifetimeOptions: ParsableArguments {
    @Option(name: .long, help: "Seconds the rows fetched for the widgets count as fresh (default 2400, as long as a widget counts them fresh).")
    var snapshotLifetime: Double = DataWidgetSchedule.defaultFreshness

    func validate() throws {
        guard snapshotLifetime > 0, snapshotLifetime.isFinite else { throw ValidationError("--snapshot-lifetime must be a positive number of seconds") }
    }

    /// The lifetime, in seconds.
    var seconds: TimeInterval { snapshotLifetime }
}
