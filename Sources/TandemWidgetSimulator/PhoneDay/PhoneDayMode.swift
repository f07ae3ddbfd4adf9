import Foundation

/// One app in a ``PhoneDay`` under a name, such as "brokered" or "direct"; each mode gets its
/// own widgets, reload budget and background scheduler, on the day's one clock.
public struct PhoneDayMode: Sendable {
    /// The name the report gives the mode.
    public let name: String
    let makeLane: @Sendable (PhoneDaySettings, VirtualClock, DeviceLock) -> any PhoneDayLaneRunning

    /// `app`, reported as `name`.
    public init<App: PhoneDayApp>(name: String, app: App) {
        self.name = name
        makeLane = { settings, clock, lock in PhoneDayLane(name: name, app: app, settings: settings, clock: clock, deviceLock: lock) }
    }
}
