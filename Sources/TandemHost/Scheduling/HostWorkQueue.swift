/// Runs the host's work without the user one piece at a time, in the order it arrived: the
/// background flow of an app-refresh task or a push, and a widget's tap the system ran in the
/// app (``HostActionExecutor``). Each opens the vault with the extensions' share and locks it
/// again when done; two at once would lock the vault under the other.
///
/// ```swift
/// let work = HostWorkQueue()
/// let succeeded = await work.run { await flow.runInBackground() }
/// ```
public actor HostWorkQueue {
    private var last: Task<Void, Never>?

    /// A queue with nothing waiting.
    public init() {}

    /// Runs `work` once everything queued before it has finished, and returns what it returned.
    public func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) async -> T {
        let previous = last
        let task = Task {
            await previous?.value
            return await work()
        }
        last = Task { _ = await task.value }
        return await task.value
    }
}
