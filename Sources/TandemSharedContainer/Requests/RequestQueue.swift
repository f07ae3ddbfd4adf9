#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform

extension SharedContainer {
    /// The data requests extensions write for the host.
    public var requests: RequestQueue { RequestQueue(container: self) }
}

/// Data requests: written by extensions, listed, fulfilled and completed by the host.
///
/// ```swift
/// try container.requests.submit(kind: "entities", key: key, share: share, sealingKey: sealingKey)  // a widget
/// for request in try container.requests.pending(sealingKey: sealingKey) { … }                       // the host
/// ```
public struct RequestQueue: Sendable {
    let container: SharedContainer

    /// Asks the host for the data of `kind` + `key`, replacing an earlier request for the same
    /// kind and key and counting one more ``DataRequest/attempt`` than it (a file that does not
    /// open under `sealingKey` counts as none). The auxiliary share travels sealed under
    /// `sealingKey`.
    ///
    /// ```swift
    /// try container.requests.submit(kind: "entities", key: EntityKey(destination: "eu", entitySet: "orders"),
    ///                               share: share, sealingKey: sealingKey)
    /// ```
    ///
    /// - Parameters:
    ///   - kind: What is asked for (`[A-Za-z0-9._-]`), such as `entities`.
    ///   - key: Which data of that kind, such as a destination and an entity set. Encoded as
    ///     canonical JSON: equal keys are the same request.
    ///   - share: The extension's auxiliary share, from `AuxiliaryShare/load(from:vaultName:)`.
    ///   - sealingKey: The key shared with the host, from ``SharedSealingKey/load(from:)``.
    ///   - now: The request's creation time.
    /// - Returns: The request as written.
    /// - Throws: ``SharedContainerError/invalidName(_:)``, ``SharedContainerError/unencodable(_:)``, ``SharedContainerError/io(_:)``.
    @discardableResult
    public func submit<Key: Encodable>(
        kind: String, key: Key, share: AuxiliaryShare, sealingKey: SharedSealingKey, now: Date = Date()
    ) throws(SharedContainerError) -> DataRequest {
        try SharedContainer.validate(kind)
        let canonicalKey = try DataRequest.canonicalKey(key)
        let id = DataRequest.id(kind: kind, canonicalKey: canonicalKey)
        let path = DataRequest.path(id: id)
        // The request it replaces, if it is one of ours: anything else (damaged, foreign, sealed
        // under another key) starts the count again, so a forged file cannot stretch the wait.
        let replaced = try? readRequest(at: path, sealingKey: sealingKey)
        let attempt = min((replaced?.attempt ?? 0) + 1, DataRequest.maximumAttempt)
        let body = DataRequest.Body(kind: kind, key: canonicalKey, createdAt: now, share: share.serialized, attempt: attempt)
        let record = try container.writeSealed(value: body, kind: DataRequest.recordKind, to: path, symmetricKey: sealingKey.symmetricKey, durability: .cache)
        return DataRequest(id: id, kind: kind, key: canonicalKey, createdAt: now, attempt: attempt, share: share, record: record)
    }

    /// Returns when a widget writes a request (at once if one not in `seen` is already
    /// waiting), after `timeout`, or when the task is cancelled. A long-running host waits here
    /// between its background runs instead of polling, passing what ``seen()`` found before its
    /// last run so that the requests that run left pending do not wake it again.
    ///
    /// On Linux an inotify watch wakes it as the request lands; where there is no watch (or it
    /// cannot be set up) it looks every `pollInterval`. Either way the caller reads the queue
    /// afterwards: waking is a hint, never a promise that a readable request is there.
    ///
    /// - Parameters:
    ///   - timeout: The longest wait, on `clock`.
    ///   - pollInterval: How often to look where there is no watch.
    ///   - seen: Request files that do not count; by default none (every file there counts).
    ///   - clock: The clock `timeout` runs on. The watch and the polls wait on the operating
    ///     system, in real time, and only hint that it is time to look.
    /// - Returns: `true` when a request file not in `seen` is there (or was seen arriving),
    ///   `false` after the timeout.
    public func waitForRequests(
        upTo timeout: Duration, pollInterval: Duration = .milliseconds(250), besides seen: SeenRequests = SeenRequests(),
        clock: any WallClock = SystemClock()
    ) async -> Bool {
        let folder = container.directory.appendingPathComponent("requests", isDirectory: true)
        let deadline = clock.now.addingTimeInterval(timeout.timeInterval)
        while !Task.isCancelled {
            if hasRequestFiles(besides: seen) { return true }
            let remaining = deadline.timeIntervalSince(clock.now)
            guard remaining > 0 else { return false }
            if let watch = DirectoryWatch.shared {
                let watched = await clock.sleep(until: deadline) {
                    await watch.wait(forArrivalIn: folder, upTo: .seconds(remaining), noneYet: { !hasRequestFiles(besides: seen) })
                }
                if watched { continue }
            }
            let poll = min(pollInterval, .seconds(remaining))
            _ = await clock.sleep(until: deadline) { (try? await Task.sleep(for: poll)) != nil }
        }
        return hasRequestFiles(besides: seen)
    }

    /// The request files there now, readable or not, for ``waitForRequests(upTo:pollInterval:besides:clock:)``.
    public func seen() -> SeenRequests {
        SeenRequests(files: Dictionary(requestFiles().map { ($0.path, $0.identity) }, uniquingKeysWith: { first, _ in first }))
    }

    /// Whether any request file not in `seen` is in the folder (readable or not): what would
    /// end a ``waitForRequests(upTo:pollInterval:besides:clock:)`` at once.
    public func hasRequestFiles(besides seen: SeenRequests) -> Bool {
        requestFiles().contains { !seen.contains($0.path, $0.identity) }
    }

    /// Every request file in the folder with its identity, data requests and action requests
    /// (``ActionQueue``) alike: either wakes the host. A file that vanished while being looked at
    /// is left out.
    private func requestFiles() -> [(path: String, identity: SeenRequests.Identity)] {
        var paths: [String] = []
        for suffix in ["request", ActionRequest.suffix] {
            paths += (try? container.recordPaths(in: "requests", suffix: suffix, quiet: true)) ?? []
        }
        return paths.compactMap { path in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: container.url(path).path),
                let inode = Self.fileNumber(attributes[.systemFileNumber])
            else { return nil }
            return (path, SeenRequests.Identity(inode: inode, modified: attributes[.modificationDate] as? Date))
        }
    }

    /// A file-number attribute as a number, whichever integer type this platform's Foundation
    /// gives it (an `NSNumber` on Apple platforms bridges to `UInt64` too).
    private static func fileNumber(_ value: Any?) -> UInt64? {
        switch value {
        case let number as UInt64: number
        case let number as Int: UInt64(exactly: number)
        case let number as UInt: UInt64(number)
        default: nil
        }
    }

    /// The requests waiting for the host, oldest first.
    ///
    /// A damaged, foreign, newer-format or otherwise-keyed file is skipped with a log line; it
    /// never hides the other requests, and the extension's next request replaces it.
    ///
    /// - Parameter sealingKey: The key the host provisioned with ``SharedSealingKey/provision(in:)``.
    /// - Throws: ``SharedContainerError/io(_:)`` only when the folder itself cannot be listed.
    public func pending(sealingKey: SharedSealingKey) throws(SharedContainerError) -> [DataRequest] {
        let paths = try container.recordPaths(in: "requests", suffix: "request", others: [ActionRequest.suffix])
        return container.readEach(paths) { path throws(SharedContainerError) in try readRequest(at: path, sealingKey: sealingKey) }
            .sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    /// Removes `request` once it is handled — only if its file still is that request: a newer
    /// request for the same kind and key, written meanwhile, stays pending.
    ///
    /// - Returns: Whether the request was removed (`false` when it was gone or replaced).
    @discardableResult
    public func complete(_ request: DataRequest) -> Bool {
        container.removeIfUnchanged(DataRequest.path(id: request.id), expected: request.record)
    }

    // MARK: - Internals

    private func readRequest(at path: String, sealingKey: SharedSealingKey) throws(SharedContainerError) -> DataRequest? {
        guard let record = try container.contents(of: path, kind: DataRequest.recordKind) else { return nil }
        var plaintext = try container.openSealed(record, kind: DataRequest.recordKind, path: path, symmetricKey: sealingKey.symmetricKey)
        defer { plaintext.resetBytes(in: 0..<plaintext.count) }
        var body = try container.decodeSealed(DataRequest.Body.self, from: plaintext, kind: DataRequest.recordKind, path: path)
        defer { body.share.resetBytes(in: 0..<body.share.count) }
        let id = DataRequest.id(kind: body.kind, canonicalKey: body.key)
        // The id is bound to the path by the sealing; this catches a request written by a
        // buggy or foreign client under a name that is not its digest.
        guard DataRequest.path(id: id) == path else { throw .corrupt(path: path, reason: "the request does not match its name") }
        let share: AuxiliaryShare
        do {
            share = try AuxiliaryShare(serialized: body.share)
        } catch {
            throw .corrupt(path: path, reason: "the request's share is malformed")
        }
        let attempt = min(max(body.attempt ?? 1, 1), DataRequest.maximumAttempt)
        return DataRequest(id: id, kind: body.kind, key: body.key, createdAt: body.createdAt, attempt: attempt, share: share, record: record)
    }
}
