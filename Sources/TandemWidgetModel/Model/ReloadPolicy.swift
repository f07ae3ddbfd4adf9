#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When the system asks a provider for its next timeline, mirroring WidgetKit's
/// `TimelineReloadPolicy`.
///
/// The system treats the policy as the earliest time, not a promise: a spent reload budget or
/// a minimum interval between reloads can push it later.
public enum ReloadPolicy: Codable, Hashable, Sendable {
    /// Ask for a new timeline once the last entry's date has passed.
    case atEnd
    /// Ask for a new timeline at (or after) the given date.
    case after(Date)
    /// Never ask on its own; only a reload the host app requests brings a new timeline.
    case never
}
