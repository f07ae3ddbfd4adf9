import Foundation

/// Milliseconds since 1970, the unit of APNs' `timestamp` and of the inbox files' `received_at`.
enum APNsStandInTime {
    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }
}
