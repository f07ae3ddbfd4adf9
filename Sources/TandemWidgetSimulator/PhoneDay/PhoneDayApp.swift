import Foundation
import TandemWidgetModel

/// The app under test in a ``PhoneDay``: a host app and its widget extension, played by their
/// real code. The phone day decides when each part runs, as iOS does; the app only does its
/// work when asked.
///
/// A conforming type opens its host's storage anew for every call (iOS suspends and ends the
/// app between runs) and returns a new provider from ``widgetProcess()`` for every reload (iOS
/// discards the widget's process between reloads), so only what is in the shared container
/// carries over.
public protocol PhoneDayApp: Sendable {
    /// The widget extension's provider.
    associatedtype Provider: WidgetProvider

    /// The widgets placed on the home screen, each reloaded on its own.
    var widgets: [WidgetInstance<Provider.Configuration>] { get }

    /// The user opened the app (the phone is unlocked): its foreground flow. `widgets` reloads
    /// the widgets, free of budget while the app is in the foreground.
    ///
    /// - Returns: Whether the flow succeeded; the app then asks for background time.
    func open(widgets: WidgetReloads) async -> Bool

    /// The system granted background time: the registered work. `widgets` reloads the widgets;
    /// each reload counts against their budget. (No virtual time passes while it runs, so the
    /// system's 30 seconds never run out.)
    ///
    /// - Parameter protectedDataAvailable: `false` before the first unlock, when files and
    ///   keychain items protected until first unlock cannot be read.
    /// - Returns: Whether the work succeeded.
    func backgroundRun(widgets: WidgetReloads, protectedDataAvailable: Bool) async -> Bool

    /// A background push arrived and the system launched the app for it: the app's work for
    /// it, which knows the server's data changed (the host's `RemotePushes` sets the flow's
    /// `contentChangedAt`). By default, ``backgroundRun(widgets:protectedDataAvailable:)``.
    ///
    /// - Returns: Whether the work succeeded.
    func backgroundPush(widgets: WidgetReloads, protectedDataAvailable: Bool) async -> Bool

    /// A new widget extension process.
    func widgetProcess() -> Provider

    /// The user taps Approve on the widget's row of the `number`th approval; the system runs the
    /// intent in the app's process (`inApp`) or in the widget extension. By default, an app
    /// without actions: nothing is written.
    func tap(_ number: Int, inApp: Bool) async -> PhoneDayTapResult

    /// Which of `requests` the host has executed (their results are in the shared container). By
    /// default none.
    func executed(_ requests: [String]) async -> Set<String>

    /// Which version of the server's data `entry` shows (0 for the data of before the day, 1
    /// after the first change, …), or `nil` when it shows none.
    func version(shownBy entry: Provider.Entry) -> Int?
}

extension PhoneDayApp {
    /// An app whose widget offers no actions.
    public func tap(_ number: Int, inApp: Bool) async -> PhoneDayTapResult {
        PhoneDayTapResult(request: nil, expiresAt: nil, executed: false)
    }

    /// An app whose widget offers no actions.
    public func executed(_ requests: [String]) async -> Set<String> { [] }

    /// An app that does the same for a background push as for background time.
    public func backgroundPush(widgets: WidgetReloads, protectedDataAvailable: Bool) async -> Bool {
        await backgroundRun(widgets: widgets, protectedDataAvailable: protectedDataAvailable)
    }
}
