import ArgumentParser

/// How the phone day's business widget gets its rows.
enum PhoneDayWidgetMode: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// The widget writes a request; the host's background run answers it and reloads the widget.
    case brokered
    /// The widget fetches with its own grant.
    case direct
}
