/// What an app's client id, URL scheme, link host and Apple app id may be: checked where they
/// are set (the server's app registration, from `tandem admin create-app` and the cockpit) and
/// where they are written into code (`tandem generate`), so the two cannot disagree.
///
/// ```swift
/// AppIdentifierRules.isValidURLScheme("sales")        // true
/// AppIdentifierRules.isValidURLScheme("javascript")   // false: a scheme the web owns
/// AppIdentifierRules.isValidClientID("acme:kiosk")    // true
/// AppIdentifierRules.isValidClientID("a\nb")          // false
/// AppIdentifierRules.isValidLinkHost("links.example.com")       // true
/// AppIdentifierRules.isValidAppleAppID("ABCDE12345.com.acme.sales") // true
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

    /// Whether `host` can be an app's associated domain for universal links: a DNS name of at
    /// least two labels, lowercase letters, digits and inner hyphens, each label 1 to 63 bytes,
    /// at most 253 in all; no scheme, port, path, IP address or trailing dot.
    public static func isValidLinkHost(_ host: String) -> Bool {
        guard !host.isEmpty, host.utf8.count <= 253 else { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, !(labels.last?.utf8.allSatisfy(isDigit) ?? true) else { return false }
        return labels.allSatisfy { label in
            let bytes = label.utf8
            guard let first = bytes.first, let last = bytes.last, bytes.count <= 63 else { return false }
            return first != UInt8(ascii: "-") && last != UInt8(ascii: "-")
                && bytes.allSatisfy { isLowercaseLetter($0) || isDigit($0) || $0 == UInt8(ascii: "-") }
        }
    }

    /// Whether `appID` is an Apple application identifier as `apple-app-site-association` lists
    /// it: a ten-character team id (uppercase letters and digits), a dot, and a bundle id
    /// (letters, digits, `-` and `.`, not starting or ending with a dot), at most 255 bytes.
    public static func isValidAppleAppID(_ appID: String) -> Bool {
        let bytes = Array(appID.utf8)
        guard bytes.count > 11, bytes.count <= 255, bytes[10] == UInt8(ascii: ".") else { return false }
        let team = bytes[..<10], bundle = bytes[11...]
        guard team.allSatisfy({ isDigit($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return false }
        guard bundle.first != UInt8(ascii: "."), bundle.last != UInt8(ascii: ".") else { return false }
        return bundle.allSatisfy {
            isLowercaseLetter($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || isDigit($0) || "-.".utf8.contains($0)
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isLowercaseLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
}
