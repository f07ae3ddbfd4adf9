/// What an app's client id and URL scheme may be: checked where they are set (the server's app
/// registration, from `tandem admin create-app` and the cockpit) and where they are written
/// into code (`tandem generate`), so the two cannot disagree.
///
/// ```swift
/// AppIdentifierRules.isValidURLScheme("sales")        // true
/// AppIdentifierRules.isValidURLScheme("javascript")   // false: a scheme the web owns
/// AppIdentifierRules.isValidClientID("acme:kiosk")    // true
/// AppIdentifierRules.isValidClientID("a\nb")          // false
/// ```
public enum AppIdentifierRules {
    /// The longest client id, in bytes.
    public static let maximumClientIDLength = 128
    /// The longest URL scheme, in bytes.
    public static let maximumURLSchemeLength = 64

    /// Schemes an app must not claim: the web's and the system's own. A link in one of them
    /// would open a browser or another app, or run script, instead of reaching the app.
    public static let reservedURLSchemes: Set<String> = [
        "http", "https", "javascript", "vbscript", "data", "file", "about", "blob", "ftp", "ws", "wss",
        "mailto", "tel", "sms", "facetime", "facetime-audio", "maps", "itms", "itms-apps", "itms-services",
    ]

    /// Whether `clientID` is 1 to 128 visible ASCII characters (RFC 6749's VSCHAR without the
    /// space): no control characters, spaces or anything beyond ASCII.
    public static func isValidClientID(_ clientID: String) -> Bool {
        !clientID.isEmpty && clientID.utf8.count <= maximumClientIDLength && clientID.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }

    /// Whether `scheme` is an app's own URL scheme: a lowercase letter, then lowercase letters,
    /// digits, `+`, `-` or `.` (RFC 3986, lowercase as iOS compares them), at most 64, and not
    /// one of ``reservedURLSchemes``.
    public static func isValidURLScheme(_ scheme: String) -> Bool {
        let bytes = scheme.utf8
        guard let first = bytes.first, isLowercaseLetter(first), bytes.count <= maximumURLSchemeLength else { return false }
        guard bytes.allSatisfy({ isLowercaseLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || "+-.".utf8.contains($0) }) else {
            return false
        }
        return !reservedURLSchemes.contains(scheme)
    }

    private static func isLowercaseLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
