import Foundation

/// What a backend's `Cache-Control` response header lets this server do with a page
/// (RFC 9111 §5.2.2): keep it at all (`no-store` says no), and serve it without asking again for
/// how long (`max-age`; `no-cache` or no header: revalidate every time).
///
/// The server keeps pages per user, as the user's own client would (a `private` response is
/// kept: no other user ever sees it), and serves a stale page only with `"stale":true`.
struct BackendCacheDirectives: Sendable, Hashable {
    /// The page may be kept (for revalidation and for showing it stale while the backend is down).
    var storable: Bool
    /// How many seconds the page may be served without revalidating, capped by the reader.
    var maximumAge: Int

    /// Reads a `Cache-Control` value; nil (no header) keeps the page and revalidates every time.
    init(cacheControl: String?) {
        storable = true
        maximumAge = 0
        guard let cacheControl else { return }
        var mustRevalidate = false
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            switch parts.first {
            case "no-store":
                storable = false
            case "no-cache":
                mustRevalidate = true
            case "max-age" where parts.count == 2:
                maximumAge = max(Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))) ?? 0, 0)
            default:
                continue
            }
        }
        if mustRevalidate { maximumAge = 0 }
    }
}
