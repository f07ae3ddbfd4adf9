import Foundation

extension RefreshEvent: CustomStringConvertible {
    /// A short, stable line for logs and the CLI: `lease-acquired`, `waited-for-peer 0.120s`, …
    public var description: String {
        switch self {
        case .leaseAcquired: "lease-acquired"
        case .brokeExpiredLease: "broke-expired-lease"
        case .waitedForPeer(let seconds): "waited-for-peer \(String(format: "%.3f", seconds))s"
        case .reusedPeerResult: "reused-peer-result"
        case .refreshed: "refreshed"
        case .reauthenticationRequired: "reauthentication-required"
        }
    }
}
