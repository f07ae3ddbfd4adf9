#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What happens when a passcode policy's retry limit is reached.
public enum PasscodeLimitAction: Codable, Sendable, Equatable {
    /// Refuse every attempt for this many seconds, then allow one more attempt; each further
    /// lockout lasts twice as long (up to 1,024 times this). A correct passcode ends it all.
    case lock(seconds: TimeInterval)
    /// Destroy the vault and its keys: its data is gone for good.
    case wipe
}
