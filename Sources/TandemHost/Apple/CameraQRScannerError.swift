#if canImport(AVFoundation) && canImport(UIKit) && os(iOS)
import Foundation

/// Why ``CameraQRScanner`` could not scan. Closing the scanner is not an error of this kind: it
/// throws `CancellationError`.
public enum CameraQRScannerError: Error, Sendable, Equatable {
    /// The user refused the app the camera. Send them to the app's page in Settings
    /// (`UIApplication.openSettingsURLString`), or to the SSO page on the phone itself, which
    /// offers the onboarding link instead of a code.
    case cameraDenied
    /// Screen Time or a device-management profile blocks the camera; the user cannot allow it
    /// from the app's page in Settings. Offer the onboarding link instead.
    case cameraRestricted
    /// The device has no camera that reads QR codes, or it is in use elsewhere (another app in
    /// Split View). Offer the onboarding link instead, or try again later.
    case cameraUnavailable
    /// No foreground scene has a key window to show the scanner over (the app is in the
    /// background). Try again once the app is active.
    case noWindow
}
#endif
