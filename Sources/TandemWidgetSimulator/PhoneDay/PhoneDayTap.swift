import Foundation

/// A tap on a widget's Approve during a ``PhoneDay``, and what became of it.
///
/// Where the system runs the tap's intent is the day's model of iOS 17 and later: in the app's
/// process, launched in the background, unless the user force-quit the app (Apple documents no
/// launch for it then, so the day assumes none); there the intent executes the request before it
/// returns. In the widget extension it writes the request, which the host executes in its next
/// run (the user opening the app, a background task or push), and the widget says "Sent when the
/// app next runs" until then. A run takes no virtual time, so "at once" is within the intent: its
/// real latency is the server's and the network's (`make bench` measures the tap-to-result time).
public struct PhoneDayTap: Codable, Hashable, Sendable {
    /// Where the tap's intent ran.
    public enum Process: String, Codable, Hashable, Sendable {
        /// The app's process, launched in the background for the intent.
        case app
        /// The widget extension: the request waits for the host's next run.
        case widgetExtension = "widget-extension"
    }

    /// When the user tapped.
    public var date: Date
    /// Where the intent ran.
    public var process: Process
    /// The request written (its id), or `nil` when none could be written (the widget said why).
    public var request: String?
    /// When the request was executed (its result written), or `nil` while it waits or when it
    /// expired.
    public var executedAt: Date?
    /// When the request expires unexecuted.
    public var expiresAt: Date?

    /// A tap at `date` run in `process`, which wrote `request`.
    public init(date: Date, process: Process, request: String?, executedAt: Date? = nil, expiresAt: Date? = nil) {
        self.date = date
        self.process = process
        self.request = request
        self.executedAt = executedAt
        self.expiresAt = expiresAt
    }

    /// Seconds from the tap to its execution, or `nil` when it was not executed.
    public var secondsToExecution: TimeInterval? { executedAt.map { $0.timeIntervalSince(date) } }

    /// Whether it expired unexecuted by `date`.
    public func expired(by date: Date) -> Bool {
        executedAt == nil && (expiresAt.map { date >= $0 } ?? false)
    }
}

/// What an app of a ``PhoneDay`` does when the user taps Approve on its widget.
public struct PhoneDayTapResult: Sendable {
    /// The request written, or `nil` when none could be (no extension access, device locked).
    public var request: String?
    /// When it expires.
    public var expiresAt: Date?
    /// Whether it was executed before the intent returned (in the app's process).
    public var executed: Bool

    /// A result of a tap that wrote `request`, executed or not.
    public init(request: String?, expiresAt: Date?, executed: Bool) {
        self.request = request
        self.expiresAt = expiresAt
        self.executed = executed
    }
}
