#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension RefreshEvent: CustomStringConvertible {
    /// A short, stable line for logs and the CLI: `lease-acquired`, `waited-for-peer 0.120s`, …
    public var description: String {
        switch self {
        case .leaseAcquired: "lease-acquired"
        case .brokeExpiredLease: "broke-expired-lease"
        case .waitedForPeer(let seconds): "waited-for-peer \(Self.milliseconds(seconds))s"
        case .reusedPeerResult: "reused-peer-result"
        case .refreshed: "refreshed"
        case .reauthenticationRequired: "reauthentication-required"
        }
    }

    /// `seconds` with three decimals (`0.120`), as the line has always shown it.
    private static func milliseconds(_ seconds: Double) -> String {
        let millis = seconds.isFinite ? Int((max(0, seconds) * 1000).rounded()) : 0
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
