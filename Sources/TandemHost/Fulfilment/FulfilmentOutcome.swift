import Foundation
import TandemSharedContainer

/// What ``BrokeredFulfilment/fulfil(_:fetch:)`` did with one request.
///
/// ```swift
/// for outcome in await broker.fulfil(requests, fetch: fetch) {
///     if case .failed(let request, let failure) = outcome { logger.warning("\(request): \(failure)") }
/// }
/// ```
public enum FulfilmentOutcome: Sendable {
    /// The snapshot was written and the request completed.
    case fulfilled(DataRequest, Snapshot)
    /// The request's share does not open the vault (wrong, or rotated away): nothing was
    /// fetched, and the request was removed.
    case refused(DataRequest)
    /// Something failed: nothing was written, and the request stays pending for the next run.
    case failed(DataRequest, FulfilmentFailure)

    /// The request this outcome is about.
    public var request: DataRequest {
        switch self {
        case .fulfilled(let request, _), .refused(let request), .failed(let request, _): request
        }
    }
}
