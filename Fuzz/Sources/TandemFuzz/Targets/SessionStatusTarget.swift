import Foundation
import TandemSharedContainer

/// The session status (`Sources/TandemSharedContainer/Status/`), an unsealed record any process
/// with App Group access may write, read by every widget with `SharedContainer.status()`.
///
/// Invariant: a status that reads is written again with `setStatus` and reads back equal.
enum SessionStatusTarget {
    static let target = FuzzTarget(
        name: "status",
        summary: "the status file read with SharedContainer.status(); what reads is written and reads back equal",
        seeds: {
            let fixtures = FuzzFixtures.shared
            let statuses = [
                SessionStatus(state: .ready, updatedAt: fixtures.now, backgroundRefresh: .available),
                SessionStatus(state: .signedOut, updatedAt: fixtures.now, reason: "revoked by the server", backgroundRefresh: .lowPowerMode),
                SessionStatus(state: .reauthRequired, updatedAt: fixtures.now),
            ]
            return statuses.compactMap { status in
                try? fixtures.container.setStatus(status)
                return fixtures.contents(at: "status")
            }
        },
        run: run
    )

    static func run(_ input: Data) {
        let fixtures = FuzzFixtures.shared
        fixtures.plant(input, at: "status")
        guard let status = try? fixtures.container.status() else { return }
        do {
            try fixtures.container.setStatus(status)
        } catch {
            return
        }
        let again = try? fixtures.container.status()
        Invariant.expect(again == status, "a status written again read back as \(String(describing: again)), not \(status)")
    }
}
