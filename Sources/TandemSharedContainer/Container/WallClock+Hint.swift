#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

extension WallClock {
    /// Waits until `deadline` on this clock or until `hint` returns, whichever comes first: how a
    /// wait for a file event (`DirectoryWatch`) or a file-system poll is bounded by a deadline
    /// that a test's clock moves.
    ///
    /// `hint` waits on the operating system, in real time, and must end on its own no later than
    /// `deadline` would on the system clock (a watch's `upTo`, a poll's pause), so that on
    /// `SystemClock` it is simply awaited.
    ///
    /// - Returns: What `hint` returned, or `true` when the deadline came first or the task was
    ///   cancelled (the caller looks again either way).
    func sleep(until deadline: Date, orUntil hint: @escaping @Sendable () async -> Bool) async -> Bool {
        if self is SystemClock { return await hint() }
        let clock = self
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                try? await clock.sleep(until: deadline)
                return true
            }
            group.addTask { await hint() }
            let first = await group.next() ?? true
            group.cancelAll()
            return first
        }
    }
}
