/// The analytics events of widget actions, written once: the host tracks one per outcome, the
/// server's cockpit counts them.
///
/// Each outcome has its own name (`widget.action.done`, …), so the server's summaries, which
/// count by name and by the grouping properties (``EventBatchRules/groupingProperties``), count
/// actions by outcome; the event's `kind` is the surface the user acted from
/// (``ItemActionRules/Origin``: `widget`, `control`, `shortcut`, `app`) and its `family` the widget family.
///
/// ```swift
/// try await analytics.track(action: ActionEventNames.name(outcome: "needs app"), data: ["kind": "widget", "family": "systemMedium"])
/// ```
public enum ActionEventNames {
    /// What every action event's name starts with.
    public static let prefix = "widget.action."
    /// The outcomes, in the order the cockpit lists them, as they appear in the names.
    public static let outcomes = ["done", "conflict", "needs-app", "refused", "expired"]

    /// The event name of `outcome` (an outcome's name as the SDK writes it; spaces become `-`).
    public static func name(outcome: String) -> String {
        prefix + String(outcome.map { $0 == " " ? "-" : $0 })
    }
}
