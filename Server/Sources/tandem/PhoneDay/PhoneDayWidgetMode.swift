import ArgumentParser

/// How the phone day's business widget gets its rows.
enum PhoneDayWidgetMode: String, CaseIterable, ExpressibleByArgument, Sendable {
    /// The widget writes a request; the host's background run answers it and reloads the widget.
    case brokered
    /// The widget fetches with its own grant.
    case direct
    /// Direct, and told of changes: the host registers its APNs token and the widgets' WidgetKit
    /// push token; the server's pushes reload the widgets (which then fetch again,
    /// `DataWidgetSchedule.revalidation`) and run the host's background flow.
    case pushed

    /// Whether the app takes pushes.
    var takesPushes: Bool { self == .pushed }
}
