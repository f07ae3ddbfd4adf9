#if canImport(UIKit) && os(iOS)
import Foundation
import TandemSharedContainer
import UIKit

/// What iOS says about the app's background time, for
/// `SharedContainer.setBackgroundRefresh(_:)`: a brokered widget whose host gets none says
/// "open the app to update" instead of waiting for a background run that will not come.
///
/// Read it when the app becomes active and when it moves to the background (the user may have
/// changed Settings or Low Power Mode meanwhile):
///
/// ```swift
/// try container.setBackgroundRefresh(SystemBackgroundRefresh.current())
/// ```
@available(iOSApplicationExtension, unavailable)
public enum SystemBackgroundRefresh {
    /// Low Power Mode first (it stops app-refresh tasks whatever the setting says), then
    /// `UIApplication.backgroundRefreshStatus`.
    @MainActor
    public static func current() -> BackgroundRefresh {
        if ProcessInfo.processInfo.isLowPowerModeEnabled { return .lowPowerMode }
        switch UIApplication.shared.backgroundRefreshStatus {
        case .available: return .available
        case .denied, .restricted: return .off
        @unknown default: return .available
        }
    }
}
#endif
