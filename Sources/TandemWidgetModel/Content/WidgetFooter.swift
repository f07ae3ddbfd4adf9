#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Writes a widget's footer from its state, so every widget words the same state the same way.
///
/// ```swift
/// WidgetFooter.text(for: .stale(age: 7_200))                       // "updated 2 h ago"
/// WidgetFooter.text(for: .signedOut)                               // "open the app to sign in"
/// WidgetFooter.text(for: .fresh, updatedAt: fetched, now: clock.now) // "updated 4 min ago"
/// ```
public enum WidgetFooter {
    /// The footer for `state`.
    ///
    /// - Parameters:
    ///   - state: The content's state.
    ///   - updatedAt: When fresh rows were fetched; without it a fresh widget says "up to date".
    ///   - now: The clock's time, used with `updatedAt`.
    public static func text(for state: WidgetState, updatedAt: Date? = nil, now: Date? = nil) -> String {
        switch state {
        case .signedOut:
            "open the app to sign in"
        case .unavailable:
            "unlock to update"
        case .stale(let age):
            "updated \(ageText(age)) ago"
        case .reauthRequired(let reason):
            reason.isEmpty ? "open the app to continue" : "open the app: \(reason)"
        case .fresh:
            if let updatedAt, let now, now.timeIntervalSince(updatedAt) >= 60 {
                "updated \(ageText(now.timeIntervalSince(updatedAt))) ago"
            } else if updatedAt != nil, now != nil {
                "updated just now"
            } else {
                "up to date"
            }
        }
    }

    /// An age in the largest whole unit: "45 s", "5 min", "2 h", "3 d". Negative ages count as zero.
    public static func ageText(_ age: TimeInterval) -> String {
        let seconds = Int(max(0, age.isFinite ? age : 0))
        switch seconds {
        case ..<60: return "\(seconds) s"
        case ..<3_600: return "\(seconds / 60) min"
        case ..<86_400: return "\(seconds / 3_600) h"
        default: return "\(seconds / 86_400) d"
        }
    }
}
