/// A name a caller chooses that then appears in paths, logs and a database (an event's name, a
/// destination, an entity set, a device): 1 to ``maximumLength`` bytes of `[A-Za-z0-9._-]`, so it
/// needs no escaping anywhere and cannot forge a log line.
public enum URLSafeName {
    /// The longest name, in bytes.
    public static let maximumLength = 100

    /// Whether `name` is such a name.
    public static func isValid(_ name: String) -> Bool {
        (1...maximumLength).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == 0x2E || byte == 0x5F || byte == 0x2D
            }
    }

    /// What a refusal says about a name of `what` (such as "destination name").
    public static func requirement(for what: String) -> String {
        "the \(what) must be 1–\(maximumLength) letters, digits, '.', '_' or '-'"
    }
}
