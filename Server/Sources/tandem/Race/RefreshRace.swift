import ArgumentParser
import Foundation
import Synchronization
import TandemAuth
import TandemTool

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The options of `tandem host race` and `tandem widget race`.
struct RaceOptions: ParsableArguments {
    @Option(name: .long, help: "How many rounds to run.")
    var rounds = 50

    @Option(name: .long, help: "When round 0 starts, in milliseconds since 1970 (give every process the same value).")
    var startAtMs: Int64?

    @Option(name: .long, help: "Start each round only once --participants processes reached it, meeting in this directory (instead of --start-at-ms).")
    var barrierDir: String?

    @Option(name: .long, help: "How many processes meet at the --barrier-dir.")
    var participants = 8

    @Option(name: .long, help: "Milliseconds between round starts.")
    var periodMs = 400

    @Option(name: .long, help: "Seconds a refresh lease lasts before others may break it.")
    var leaseSeconds = 10.0

    @Option(name: .long, help: .hidden)
    var stallRound: Int?

    @Option(name: .long, help: .hidden)
    var stallOnceFile: String?

    func validate() throws {
        guard rounds > 0, periodMs > 0, leaseSeconds > 0, participants > 0 else {
            throw ValidationError("--rounds, --period-ms, --lease-seconds and --participants must be positive")
        }
        guard (startAtMs == nil) != (barrierDir == nil) else { throw ValidationError("give either --start-at-ms or --barrier-dir") }
        guard (stallRound == nil) == (stallOnceFile == nil) else { throw ValidationError("--stall-round and --stall-once-file go together") }
    }
}

/// The refresh race one process runs: in every round, at the same moment as every other process
/// (a wall-clock start, or a barrier), it asks for a token newer than the one it holds, and prints
/// one JSON line: whether it refreshed itself or reused another process's result, and the
/// token's fingerprint.
///
/// For the kill test, `--stall-round` makes the first process (the one that creates
/// `--stall-once-file`) that takes the lease in that round stop there, holding it, until it is killed.
enum RefreshRace {
    static func run(_ options: RaceOptions, home: ExtensionHome, role: String) async throws {
        let round = RoundCounter()
        let log = RefreshEventLog()
        let session = try home.extensionSession(role: role, leaseDuration: options.leaseSeconds) { event in
            log.record(event)
            if event == .leaseAcquired, let stallRound = options.stallRound, round.value == stallRound,
                let marker = options.stallOnceFile, open(marker, O_CREAT | O_EXCL | O_WRONLY, 0o600) >= 0
            {
                JSONLine.print(["round": stallRound, "event": "stalling"])
                while true { sleep(60) }
            }
        }
        var held = try session.currentAccessToken()
        // With a wall-clock schedule, a round's line is printed halfway to the next round, not
        // as soon as this process is done: printing is work, and other processes may still be
        // finishing the round being timed.
        var unprinted: [String: Any]?
        for index in 0..<options.rounds {
            round.value = index
            log.reset()
            let start: TimeInterval
            if let startAtMs = options.startAtMs {
                start = Double(startAtMs) / 1000 + Double(index * options.periodMs) / 1000
                if let line = unprinted {
                    try waitUntil(start - Double(options.periodMs) / 2000)
                    JSONLine.print(line)
                    unprinted = nil
                }
                try waitUntil(start)
            } else if let barrierDir = options.barrierDir {
                // After the stall round, its staller is gone (killed): one process fewer meets.
                let stalled = options.stallRound.map { index > $0 } ?? false
                try await RoundBarrier(directory: URL(fileURLWithPath: barrierDir)).arrive(
                    round: index, expected: options.participants - (stalled ? 1 : 0))
                start = Date().timeIntervalSince1970
            } else {
                start = Date().timeIntervalSince1970
            }
            var line: [String: Any] = ["round": index]
            // The clock stops as soon as the token is in hand: the bookkeeping below is not part
            // of the refresh being timed.
            let outcome: Result<TokenSet, AuthError>
            do {
                outcome = .success(try await session.coordinator.refresh(replacing: held))
            } catch {
                outcome = .failure(error)
            }
            line["finished_ms"] = (Date().timeIntervalSince1970 - start) * 1000
            switch outcome {
            case .success(let tokens):
                held = tokens.accessToken
                line["result"] = "ok"
                line["token"] = JSONLine.fingerprint(tokens.accessToken)
            case .failure(let error):
                line["result"] = "error"
                line["error"] = "\(error)"
            }
            line["refreshed"] = log.contains(.refreshed)
            line["waited_ms"] = log.waitedMilliseconds
            if options.startAtMs != nil {
                unprinted = line
            } else {
                JSONLine.print(line)
            }
        }
        if let line = unprinted { JSONLine.print(line) }
    }

    /// Returns at `time` (seconds since 1970), at once if it has passed.
    ///
    /// It blocks the thread in one absolute `clock_nanosleep` instead of a `Task.sleep`: the
    /// wake-up comes to within microseconds of the start rather than rounded to a millisecond
    /// (which started some processes early), and costs one thread wake-up instead of several
    /// hand-offs. Every process of a round wakes at once on a few cores, so CPU spent waking is
    /// CPU the refresh being timed does not get. Nothing else runs in this process meanwhile.
    private static func waitUntil(_ time: TimeInterval) throws {
        guard time > Date().timeIntervalSince1970 else { return }
        #if canImport(Glibc)
        let seconds = time.rounded(.down)
        var target = timespec(tv_sec: Int(seconds), tv_nsec: Int((time - seconds) * 1e9))
        while true {
            let status = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &target, nil)
            if status == 0 { return }
            guard status == EINTR else { throw CommandFailure("cannot wait for the round's start: \(String(cString: strerror(status)))") }
        }
        #else
        // No absolute sleep here: a relative one, re-aimed after every interruption.
        while case let delay = time - Date().timeIntervalSince1970, delay > 0 { usleep(UInt32(min(delay, 1) * 1_000_000)) }
        #endif
    }
}

/// The round a race is in, read by the coordinator's event callback.
final class RoundCounter: Sendable {
    private let storage = Mutex<Int>(-1)
    var value: Int {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
