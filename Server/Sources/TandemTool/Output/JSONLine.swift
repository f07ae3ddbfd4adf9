import Crypto
import Foundation
import TandemPlatform

/// Prints results as one JSON object per line on standard output, the way scripts and the
/// cross-process tests read them. Secrets never go in here: tokens appear only as
/// ``fingerprint(_:)``.
public enum JSONLine {
    /// Writes `object` as one line, keys sorted, unbuffered (a watching process sees it at once).
    public static func print(_ object: [String: Any]) {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data("{\"error\":\"unprintable result\"}".utf8)
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    /// A short, non-reversible name for a token: the first 12 hex digits of its SHA-256, enough
    /// to tell whether two processes hold the same token without showing it.
    public static func fingerprint(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)).prefix(6))
    }
}
