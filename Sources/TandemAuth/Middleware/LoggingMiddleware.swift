#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging

/// Logs one line per request: method, path, redacted query, status and duration.
///
/// It never logs headers (they carry API keys and bearer tokens) nor bodies (token requests and
/// responses), and replaces the value of any query parameter whose name looks like it carries a
/// secret (`code`, `state`, `token`, `key`, …) with `<redacted>`.
public struct LoggingMiddleware: HTTPMiddleware {
    private let logger: Logger

    /// Query parameter names (lowercased) whose values are never logged; any name containing
    /// `token`, `secret`, `key`, `password`, `passcode` or `verifier` is redacted as well.
    static let secretNames: Set<String> = ["code", "state", "config", "assertion"]
    private static let secretFragments = ["token", "secret", "key", "password", "passcode", "verifier"]

    /// A middleware writing to `logger`.
    ///
    /// - Parameter logger: Receives an `info` line per response and a `warning` per failure.
    public init(logger: Logger = Logger(label: "tandem.auth.http")) {
        self.logger = logger
    }

    /// Passes the request on and logs the outcome.
    public func intercept(_ request: HTTPRequest, next: HTTPHandler) async throws(AuthError) -> HTTPResponse {
        let started = ContinuousClock.now
        var metadata: Logger.Metadata = ["method": "\(request.method)", "path": "\(Self.redactedPath(of: request.url))"]
        if let correlationID = request.headers[CorrelationIDMiddleware.headerName] {
            metadata["correlation_id"] = "\(correlationID)"
        }
        do {
            let response = try await next(request)
            metadata["status"] = "\(response.status)"
            metadata["duration_ms"] = "\(Self.milliseconds(since: started))"
            logger.info("http request", metadata: metadata)
            return response
        } catch {
            metadata["error"] = "\(error)"
            metadata["duration_ms"] = "\(Self.milliseconds(since: started))"
            logger.warning("http request failed", metadata: metadata)
            throw error
        }
    }

    /// The URL's path and query, with the values of secret-looking parameters redacted.
    static func redactedPath(of url: URL) -> String {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<unparsable>" }
        guard let items = components.queryItems, !items.isEmpty else { return components.percentEncodedPath }
        let query = items.map { item in
            let name = item.name.lowercased()
            let secret = secretNames.contains(name) || secretFragments.contains { name.contains($0) }
            return secret ? "\(item.name)=<redacted>" : "\(item.name)=\(item.value ?? "")"
        }
        return components.percentEncodedPath + "?" + query.joined(separator: "&")
    }

    private static func milliseconds(since start: ContinuousClock.Instant) -> Int64 {
        let elapsed = ContinuousClock.now - start
        return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
    }
}
