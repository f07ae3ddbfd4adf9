import Foundation

/// The same-origin redirect rule: which responses redirect, where to, and what the next
/// request is.
enum RedirectStep {
    private static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    /// Whether `status` is one of the redirects the client follows.
    static func isRedirect(_ status: Int) -> Bool {
        redirectStatuses.contains(status)
    }

    /// The request to send after `status` with `location`, or `nil` when the response is not a
    /// redirect to follow (not a redirect status, or no `Location`).
    ///
    /// - Throws: ``OutboundCallError/crossOriginRedirect(to:)`` when the target's scheme, host or
    ///   port differs; ``OutboundCallError/invalidRedirect(origin:)`` when it is not a URL.
    static func next(
        after status: Int, location: String?, request: BackendRequest, origin: BackendOrigin
    ) throws(OutboundCallError) -> BackendRequest? {
        guard isRedirect(status), let location, !location.isEmpty else { return nil }
        guard let url = URL(string: location, relativeTo: request.url)?.absoluteURL,
            let target = BackendOrigin(url: url)
        else { throw .invalidRedirect(origin: origin.description) }
        guard target == origin else { throw .crossOriginRedirect(to: target.description) }
        var next = request
        next.url = url
        if status == 303, request.method != .head {
            next.method = .get
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
                next.headers.remove(name: name)
            }
        }
        return next
    }
}
