import Foundation
import TandemPlatform
import TandemWidgetSimulator

extension VirtualClock {
    /// This clock as the ``WallClock`` a ``DataWidgetProvider`` reads, so that the provider under
    /// test sees the time the simulator (or the test) moves.
    var wallClock: VirtualWallClock { VirtualWallClock(clock: self) }
}

/// A ``VirtualClock`` seen as a ``WallClock``. A widget provider reads the time and never waits;
/// should something sleep on it, the sleep moves the virtual clock by its duration at once.
struct VirtualWallClock: WallClock {
    let clock: VirtualClock

    var now: Date { clock.now }

    func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        clock.advance(by: duration.timeInterval)
    }
}
