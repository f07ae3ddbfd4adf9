import Foundation

/// The answer to a request of a kind the host has no ``DataSource`` for (an extension newer than
/// its app, say): a snapshot whose payload is `{"error":"unsupported_kind","kind":"…"}`, fresh
/// for a day, so the extension reads a definite answer and the host is not asked again at every
/// run.
public enum UnsupportedDataKind {
    /// The `error` the payload carries.
    public static let error = "unsupported_kind"
    /// How long the answer stands: a day, or until the app is updated and asked again.
    public static let lifetime: TimeInterval = 24 * 3600

    /// The payload for `kind`.
    public static func payload(kind: String) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Two strings always encode.
        return (try? encoder.encode(["error": error, "kind": kind])) ?? Data()
    }
}
