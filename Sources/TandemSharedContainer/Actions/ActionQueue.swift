#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol

extension SharedContainer {
    /// The action requests widgets write for the host, and the results the host writes back.
    public var actions: ActionQueue { ActionQueue(container: self) }
}

/// Action requests (``ActionRequest``): written by a widget's intent, executed and answered by
/// the host, whose results (``ActionResult``) the widget shows.
///
/// Requests share the `requests/` folder with data requests, so one watch wakes the host for
/// either; results live in `action-results/`. Both are sealed under the ``SharedSealingKey``.
///
/// ```swift
/// try container.actions.submit(draft, share: share, sealingKey: sealingKey)                // the widget's intent
/// for reading in try container.actions.pending(sealingKey: sealingKey) { … }              // the host
/// try container.actions.write(ActionResult(id: id, draft: draft, outcome: .done(status: "approved"), at: now),
///                             sealingKey: sealingKey)                                      // the host
/// let shown = container.actions.states(sealingKey: sealingKey, now: now)                   // the widget
/// ```
public struct ActionQueue: Sendable {
    let container: SharedContainer

    /// Asks the host to execute `draft`, and returns the request waiting for it.
    ///
    /// A request for the same item, action and ETag that is still waiting and not expired is
    /// returned as it is: a double tap writes one request, with one idempotency key.
    ///
    /// - Parameters:
    ///   - draft: What to do to which item, as the widget showed it.
    ///   - share: The extension's auxiliary share.
    ///   - sealingKey: The key shared with the host.
    ///   - lifetime: How long the host may take (default ``ActionRequest/defaultLifetime``).
    ///   - now: The tap's time.
    /// - Throws: ``SharedContainerError/unencodable(_:)``, ``SharedContainerError/io(_:)``.
    @discardableResult
    public func submit(
        _ draft: ActionRequest.Draft, share: AuxiliaryShare, sealingKey: SharedSealingKey,
        lifetime: TimeInterval = ActionRequest.defaultLifetime, now: Date
    ) throws(SharedContainerError) -> ActionRequest {
        let id = ActionRequest.id(of: draft)
        let path = ActionRequest.path(id: id)
        if let waiting = try? read(at: path, sealingKey: sealingKey), !waiting.isExpired(at: now) {
            return waiting
        }
        // A result of an earlier request with this id (an expired one) stays: the widget shows
        // the newer of a request and a result, and removing it could remove the answer the host
        // is writing for a request that just left.
        let body = ActionRequest.Body(
            draft: draft, idempotencyKey: ActionRequest.randomToken(), nonce: ActionRequest.randomToken(), createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime), share: share.serialized)
        // Durable: a tap the user saw as "pending" must survive a power loss.
        let record = try container.writeSealed(value: body, kind: ActionRequest.recordKind, to: path, symmetricKey: sealingKey.symmetricKey)
        return ActionRequest(
            id: id, draft: draft, idempotencyKey: body.idempotencyKey, nonce: body.nonce, createdAt: now, expiresAt: body.expiresAt,
            share: share, record: record)
    }

    /// Every action request file waiting for the host, oldest first, readable or not: the host
    /// executes the readable ones and refuses the others as tampered.
    ///
    /// With a `limit`, only that many files are opened: those written longest ago, by the
    /// modification dates of the listing (nothing else is read to choose them). The others wait
    /// for a later call.
    ///
    /// ```swift
    /// for reading in try container.actions.pending(sealingKey: sealingKey, limit: 16) { … }
    /// ```
    ///
    /// - Parameters:
    ///   - sealingKey: The key shared with the extensions.
    ///   - limit: The most files to open; `nil` (the default) opens every one.
    /// - Throws: ``SharedContainerError/io(_:)`` only when the folder cannot be listed.
    public func pending(sealingKey: SharedSealingKey, limit: Int? = nil) throws(SharedContainerError) -> [ActionReading] {
        var paths = try container.recordPaths(in: "requests", suffix: ActionRequest.suffix, others: ["request"])
        if let limit, paths.count > limit { paths = oldest(max(limit, 0), of: paths) }
        var requests: [ActionRequest] = []
        var unreadable: [ActionReading] = []
        for path in paths {
            do throws(SharedContainerError) {
                if let request = try read(at: path, sealingKey: sealingKey) { requests.append(request) }
            } catch {
                container.logger.warning("an action request does not open", metadata: ["path": "\(path)", "error": "\(error)"])
                unreadable.append(.unreadable(id: Self.id(ofPath: path), reason: error))
            }
        }
        return unreadable + requests.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map(ActionReading.request)
    }

    /// Whether any action request file is waiting, readable or not: a listing, nothing opened.
    public func hasWaiting() -> Bool {
        !((try? container.recordPaths(in: "requests", suffix: ActionRequest.suffix, quiet: true)) ?? []).isEmpty
    }

    /// The readable requests still waiting, as a widget lists them to show "pending".
    public func waiting(sealingKey: SharedSealingKey) -> [ActionRequest] {
        guard let readings = try? pending(sealingKey: sealingKey) else { return [] }
        return readings.compactMap { if case .request(let request) = $0 { request } else { nil } }
    }

    /// Removes `request` once it is answered, only if its file still is that request.
    @discardableResult
    public func complete(_ request: ActionRequest) -> Bool {
        container.removeIfUnchanged(ActionRequest.path(id: request.id), expected: request.record)
    }

    /// Removes the unreadable request file named `id` (after its refusal is written).
    public func discard(id: String) {
        try? container.remove(ActionRequest.path(id: id))
    }

    /// Writes `result` for the widgets, sealed; an earlier result for the same id is replaced.
    ///
    /// - Throws: ``SharedContainerError/invalidName(_:)`` for an id that is no file name,
    ///   ``SharedContainerError/io(_:)``.
    public func write(_ result: ActionResult, sealingKey: SharedSealingKey) throws(SharedContainerError) {
        try SharedContainer.validate(result.id)
        try container.writeSealed(value: result, kind: ActionResult.recordKind, to: ActionResult.path(id: result.id), symmetricKey: sealingKey.symmetricKey)
    }

    /// The result written for request `id`, or `nil` when there is none (or it does not open).
    public func result(id: String, sealingKey: SharedSealingKey) -> ActionResult? {
        guard (try? SharedContainer.validate(id)) != nil else { return nil }
        return try? read(result: ActionResult.path(id: id), sealingKey: sealingKey)
    }

    /// Every result younger than ``ActionResult/retention`` at `now`, newest first; the others
    /// are removed (by the host, which calls this after each run).
    public func results(sealingKey: SharedSealingKey, now: Date, removingOld: Bool = false) -> [ActionResult] {
        guard let paths = try? container.recordPaths(in: "action-results", suffix: "result", quiet: true) else { return [] }
        var results: [ActionResult] = []
        for path in paths {
            guard let result = try? read(result: path, sealingKey: sealingKey) else { continue }
            guard now.timeIntervalSince(result.at) < ActionResult.retention else {
                if removingOld { try? container.remove(path) }
                continue
            }
            results.append(result)
        }
        return results.sorted { $0.at > $1.at }
    }

    // MARK: - Internals

    private func read(at path: String, sealingKey: SharedSealingKey) throws(SharedContainerError) -> ActionRequest? {
        guard let record = try container.contents(of: path, kind: ActionRequest.recordKind) else { return nil }
        var plaintext = try container.openSealed(record, kind: ActionRequest.recordKind, path: path, symmetricKey: sealingKey.symmetricKey)
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        var body = try container.decodeSealed(ActionRequest.Body.self, from: plaintext, kind: ActionRequest.recordKind, path: path)
        defer { body.share.resetBytes(in: 0..<body.share.count) }
        let id = ActionRequest.id(of: body.draft)
        guard ActionRequest.path(id: id) == path else { throw .corrupt(path: path, reason: "the action request does not match its name") }
        guard ItemActionRules.isValidIdempotencyKey(body.idempotencyKey), !body.nonce.isEmpty else {
            throw .corrupt(path: path, reason: "the action request's key or nonce is malformed")
        }
        let share: AuxiliaryShare
        do {
            share = try AuxiliaryShare(serialized: body.share)
        } catch {
            throw .corrupt(path: path, reason: "the action request's share is malformed")
        }
        return ActionRequest(
            id: id, draft: body.draft, idempotencyKey: body.idempotencyKey, nonce: body.nonce, createdAt: body.createdAt,
            expiresAt: body.expiresAt, share: share, record: record)
    }

    private func read(result path: String, sealingKey: SharedSealingKey) throws(SharedContainerError) -> ActionResult? {
        guard let plaintext = try container.readSealed(kind: ActionResult.recordKind, from: path, symmetricKey: sealingKey.symmetricKey) else {
            return nil
        }
        let result = try container.decodeSealed(ActionResult.self, from: plaintext, kind: ActionResult.recordKind, path: path)
        guard ActionResult.path(id: result.id) == path else { throw .corrupt(path: path, reason: "the action result does not match its name") }
        return result
    }

    /// The `count` files of `paths` modified longest ago (a file gone meanwhile sorts last).
    private func oldest(_ count: Int, of paths: [String]) -> [String] {
        let dated = paths.map { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: container.url(path).path)
            return (path: path, modified: attributes?[.modificationDate] as? Date ?? .distantFuture)
        }
        return dated.sorted { ($0.modified, $0.path) < ($1.modified, $1.path) }.prefix(count).map(\.path)
    }

    /// The id a request file's name gives: its name without the folder and suffix.
    private static func id(ofPath path: String) -> String {
        String(path.dropFirst("requests/".count).dropLast(ActionRequest.suffix.count + 1))
    }
}
