import Crypto
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TandemPlatform
import TandemProtocol

/// Prints results as one JSON object per line on standard output, the way scripts and the
/// cross-process tests read them. Secrets never go in here: tokens appear only as
/// ``fingerprint(_:)``.
public enum JSONLine {
    /// Writes `object` as one line, keys sorted, unbuffered (a watching process sees it at once).
    ///
    /// Values may be strings, booleans, integers, floating-point numbers, `nil`, arrays and
    /// dictionaries of these; anything else is written as its description.
    public static func print(_ object: [String: Any]) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let line = (try? encoder.encode(JSONValue(any: object))) ?? Data(#"{"error":"unprintable result"}"#.utf8)
        Swift.print(String(decoding: line, as: UTF8.self))
        fflush(nil)
    }

    /// A short, non-reversible name for a token: the first 12 hex digits of its SHA-256, enough
    /// to tell whether two processes hold the same token without showing it.
    public static func fingerprint(_ token: String) -> String {
        Hex.encode(SHA256.hash(data: Data(token.utf8)).prefix(6))
    }
}
