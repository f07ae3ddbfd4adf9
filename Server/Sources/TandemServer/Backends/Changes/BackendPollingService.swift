import Logging
import ServiceLifecycle
import TandemPlatform

/// Runs the ``BackendPoller`` every ``interval`` for as long as the server runs.
struct BackendPollingService: Service {
    /// The poller.
    let poller: BackendPoller
    /// How often a round starts (each set is read at its own `pollEverySeconds`).
    let interval: Duration
    /// What the service waits on.
    let clock: any WallClock

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await clock.sleep(for: interval)
                } catch {
                    break
                }
                await poller.pollOnce(now: Timestamp(clock.now))
            }
        }
    }
}
