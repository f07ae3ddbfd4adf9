import Foundation
import TandemSharedContainer
import TandemVault

/// Why a request could not be fulfilled; the request stays pending and no snapshot was written.
///
/// ```swift
/// if case .failed(_, .fetch(let error)) = outcome, error is ReauthenticationRequired {
///     try container.setStatus(SessionStatus(state: .reauthRequired))
/// }
/// ```
public enum FulfilmentFailure: Error, Sendable {
    /// The vault did not open for a reason other than a wrong share (rolled back, damaged,
    /// not created, secret storage unavailable).
    case vault(VaultError)
    /// The caller's fetch threw this error (for example the server refused the refresh token).
    case fetch(any Error)
    /// Writing the snapshot failed.
    case container(SharedContainerError)
}
