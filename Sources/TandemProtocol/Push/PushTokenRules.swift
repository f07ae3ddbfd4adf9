#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a push token may be, for the host that sends it, the shared container that carries the
/// widgets' one and the server that stores it: 8–100 bytes (APNs device tokens are 32 today, and
/// Apple says they may grow), written as hex on the wire and stored lowercase.
public enum PushTokenRules {
    /// The lengths a token may have, in bytes.
    public static let bytes = 8...100

    /// Whether `token` has an acceptable length.
    public static func isAcceptable(_ token: Data) -> Bool {
        bytes.contains(token.count)
    }

    /// `text` as lowercase hex when it is the hex of an acceptable token, else `nil`.
    public static func normalized(_ text: String) -> String? {
        let lower = text.lowercased()
        guard lower.count.isMultiple(of: 2), bytes.contains(lower.count / 2),
              lower.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) || ("a"..."f").contains($0) })
        else { return nil }
        return lower
    }
}
