import Foundation
import Subprocess
import Synchronization
import TandemTestSupport
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// A process a test starts and leaves running while it goes on: standard input read from a
/// file, standard output and error written to files the test can read at any time.
///
/// Built on swift-subprocess rather than Foundation's `Process`: on Linux, Swift 6.3's
/// `Process.run()` copies 256 bytes out of every `/proc/self/fd` entry, past the end of glibc's
/// buffer, and now and then crashes the whole test process (swiftlang/swift-corelibs-foundation#5472;
/// it did, in CI). swift-subprocess closes the child's descriptors with `closefrom` instead.
///
/// ```swift
/// let child = try await ChildProcess.launch(program, ["serve"], environment: environment,
///                                           standardOutput: out, standardError: err)
/// child.signal(SIGTERM)
/// let status = await child.exited()
/// ```
public final class ChildProcess: Sendable {
    /// How a process ended.
    public enum Termination: Sendable, Equatable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
        /// It ended, but how could not be learned (waiting for it failed).
        case unknown

        /// The exit status, or the signal's number (as Foundation's `terminationStatus` has it);
        /// -1 when unknown.
        public var status: Int32 {
            switch self {
            case .exited(let status), .signaled(let status): status
            case .unknown: -1
            }
        }
    }

    /// Its process identifier.
    public let processIdentifier: pid_t
    private let state: Mutex<(termination: Termination?, waiters: [CheckedContinuation<Termination, Never>])>

    private init(processIdentifier: pid_t) {
        self.processIdentifier = processIdentifier
        state = Mutex((nil, []))
    }

    /// Starts `program` with `arguments` and exactly `environment`.
    ///
    /// - Parameters:
    ///   - standardInput: The file it reads as standard input; `nil` for `/dev/null`.
    ///   - standardOutput: The file its standard output is written to (which must exist).
    ///   - standardError: The file its standard error is written to (which must exist).
    /// - Returns: Once it runs (or throws when it could not be started).
    public static func launch(
        _ program: URL, _ arguments: [String], environment: [String: String], standardInput: URL? = nil,
        standardOutput: URL, standardError: URL
    ) async throws -> ChildProcess {
        let input = try FileDescriptor.open(FilePath(standardInput?.path ?? "/dev/null"), .readOnly, options: .closeOnExec)
        let output = try FileDescriptor.open(FilePath(standardOutput.path), .writeOnly, options: [.append, .closeOnExec])
        let errors = try FileDescriptor.open(FilePath(standardError.path), .writeOnly, options: [.append, .closeOnExec])
        let variables = Dictionary(uniqueKeysWithValues: environment.compactMap { name, value in
            Environment.Key(rawValue: name).map { ($0, value) }
        })
        let (started, announce) = AsyncStream<Result<ChildProcess, any Error>>.makeStream()
        Task {
            var launched: ChildProcess?
            do {
                let result = try await Subprocess.run(
                    .path(FilePath(program.path)), arguments: Arguments(arguments), environment: .custom(variables),
                    input: .fileDescriptor(input, closeAfterSpawningProcess: true),
                    output: .fileDescriptor(output, closeAfterSpawningProcess: true),
                    error: .fileDescriptor(errors, closeAfterSpawningProcess: true)
                ) { execution in
                    let child = ChildProcess(processIdentifier: execution.processIdentifier.value)
                    launched = child
                    announce.yield(.success(child))
                    announce.finish()
                }
                switch result.terminationStatus {
                case .exited(let status): launched?.finish(.exited(status))
                case .signaled(let signal): launched?.finish(.signaled(signal))
                }
            } catch {
                // Before the start: the launch fails. After it (the wait for its end failed): its
                // waiters must not wait forever, so it counts as ended, with no status to say.
                announce.yield(.failure(error))
                announce.finish()
                launched?.finish(.unknown)
            }
        }
        for await outcome in started { return try outcome.get() }
        throw TestSetupError("\(program.path) neither started nor failed to start")
    }

    /// Whether it is still running.
    public var isRunning: Bool { state.withLock { $0.termination == nil } }

    /// How it ended, or `nil` while it runs.
    public var termination: Termination? { state.withLock { $0.termination } }

    /// Sends it `signal` (such as `SIGTERM` or `SIGKILL`), unless it has already ended.
    public func signal(_ signal: Int32) {
        // Under the lock: once the end is recorded, the identifier may belong to another process.
        state.withLock { state in
            if state.termination == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Returns how it ended, once it has.
    @discardableResult
    public func exited() async -> Termination {
        await withCheckedContinuation { (continuation: CheckedContinuation<Termination, Never>) in
            let ended = state.withLock { state in
                if state.termination == nil { state.waiters.append(continuation) }
                return state.termination
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    private func finish(_ termination: Termination) {
        let waiters = state.withLock { state in
            state.termination = termination
            defer { state.waiters = [] }
            return state.waiters
        }
        waiters.forEach { $0.resume(returning: termination) }
    }
}
