import TandemPlatform

/// Tells the user something they must know and need not answer ("3 wrong passcodes were
/// entered since you last opened the app"): an alert in an app.
public protocol NoticePresenter: Sendable {
    /// Shows `notice` and returns once the user has seen it (or at once, where nobody waits).
    func tell(_ notice: String) async
}

/// A ``NoticePresenter`` that keeps every notice, in order: for tests, and for hosts without a
/// screen that report the notices with their result.
public final class CollectedNotices: NoticePresenter {
    private let collected = Locked<[String]>([])

    /// A presenter that has been told nothing yet.
    public init() {}

    /// Every notice so far, oldest first.
    public var all: [String] { collected.withLock { $0 } }

    public func tell(_ notice: String) async {
        collected.withLock { $0.append(notice) }
    }
}
