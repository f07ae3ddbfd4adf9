import TandemHost
import TandemPlatform
import Testing

/// The host's work without the user, one piece at a time: a widget's tap arriving while a
/// background flow has the vault open waits for it, whatever the scheduling.
@Suite("Host work runs one piece at a time, in order")
struct HostWorkQueueTests {
    /// A gate a piece of work waits at until the test opens it.
    final class Gate: Sendable {
        private let stream = AsyncStream<Void>.makeStream()
        func wait() async { for await _ in stream.stream { return } }
        func open() { stream.continuation.yield(()) }
    }

    @Test func aSecondPieceStartsOnlyOnceTheFirstHasFinished() async throws {
        let queue = HostWorkQueue()
        let log = Locked<[String]>([])
        let gate = Gate()
        let started = Gate()
        let first = Task {
            await queue.run {
                log.withLock { $0.append("first started") }
                started.open()
                await gate.wait()
                log.withLock { $0.append("first ended") }
                return 1
            }
        }
        await started.wait()
        let second = Task {
            await queue.run {
                log.withLock { $0.append("second") }
                return 2
            }
        }
        // However long the second waits, it does not start while the first holds the queue.
        for _ in 0..<50 { await Task.yield() }
        #expect(log.withLock { $0 } == ["first started"])
        gate.open()
        #expect(await first.value == 1)
        #expect(await second.value == 2)
        #expect(log.withLock { $0 } == ["first started", "first ended", "second"])
    }

    @Test func workQueuedAfterTheQueueEmptiedRunsAtOnce() async {
        let queue = HostWorkQueue()
        #expect(await queue.run { 1 } == 1)
        #expect(await queue.run { 2 } == 2)
    }
}
