#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `POST /v1/events` accepts, as the server checks it and the client checks before it queues
/// or sends: at most ``maximumEvents`` events a batch, each named by ``isValidName(_:)``, grouped
/// in summaries by ``groupingProperties``. An event the server refuses refuses its whole batch,
/// so the client applies the same rules first.
public enum EventBatchRules {
    /// The most events one batch may carry.
    public static let maximumEvents = 500
    /// The longest event name, in bytes.
    public static let maximumNameLength = URLSafeName.maximumLength
    /// The properties the server's summaries group by; each must be a string when present.
    public static let groupingProperties = ["kind", "family", "configuration"]

    /// Whether `name` is a well-formed event name, such as `widget.tap`: a ``URLSafeName``.
    public static func isValidName(_ name: String) -> Bool {
        URLSafeName.isValid(name)
    }
}
