import Foundation

/// A name a caller chooses that then appears in paths, logs and the database (a destination, an
/// entity set, a device): 1–100 ASCII letters, digits, `.`, `_` or `-`, so it needs no escaping
/// anywhere and cannot forge a log line.
enum URLSafeName {
    /// The most characters in a name.
    static let maximumLength = 100

    /// What a refusal says about a name of `what` (such as "destination").
    static func requirement(for what: String) -> String {
        "the \(what) must be 1–\(maximumLength) letters, digits, '.', '_' or '-'"
    }

    /// Whether `name` is such a name.
    static func isValid(_ name: String) -> Bool {
        (1...maximumLength).contains(name.unicodeScalars.count)
            && name.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
    }
}
