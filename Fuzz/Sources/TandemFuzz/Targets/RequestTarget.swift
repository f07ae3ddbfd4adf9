import Foundation
@testable import TandemSharedContainer

/// Brokered requests (`Sources/TandemSharedContainer/Requests/`), read by the host with
/// `RequestQueue.pending(sealingKey:)`. The first byte picks what the rest is: (even) the
/// bytes of a request file, as anyone with App Group access may write one; (odd) a request's
/// plaintext, sealed with the shared sealing key as any extension holding it may.
///
/// Invariants: a request file that opens is one the key's holder wrote; whatever `pending`
/// returns lies at the path its identity names, with an attempt within `1...maximumAttempt`;
/// and `complete` removes the request it returned.
enum RequestTarget {
    struct Key: Codable, Equatable {
        var destination: String
        var page: Int
    }

    static let kind = "orders"
    static let key = Key(destination: "orders", page: 1)

    static let target = FuzzTarget(
        name: "request",
        summary: "a request file (raw, or a plaintext sealed under the shared sealing key) read with RequestQueue.pending",
        seeds: {
            let fixtures = FuzzFixtures.shared
            guard let request = submit(), let record = fixtures.contents(at: DataRequest.path(id: request.id)) else { return [] }
            var seeds = [Data([0]) + record]
            if let plaintext = try? fixtures.container.openSealed(
                record, kind: DataRequest.recordKind, path: DataRequest.path(id: request.id), symmetricKey: fixtures.sealingKey.symmetricKey)
            {
                seeds.append(Data([1]) + plaintext)
            }
            return seeds
        },
        run: run
    )

    /// The request the host expects, submitted as an extension submits it.
    @discardableResult
    static func submit() -> DataRequest? {
        let fixtures = FuzzFixtures.shared
        return try? fixtures.container.requests.submit(
            kind: kind, key: key, share: fixtures.share, sealingKey: fixtures.sealingKey, now: fixtures.now)
    }

    static func run(_ input: Data) {
        let fixtures = FuzzFixtures.shared
        let id = DataRequest.id(kind: kind, canonicalKey: (try? DataRequest.canonicalKey(key)) ?? Data())
        let path = DataRequest.path(id: id)
        let forged = input.first.map { $0 % 2 == 1 } ?? false
        let body = Data(input.dropFirst())
        if forged {
            do {
                try fixtures.container.writeSealed(
                    body, kind: DataRequest.recordKind, to: path, symmetricKey: fixtures.sealingKey.symmetricKey, durability: .cache)
            } catch {
                return
            }
        } else {
            fixtures.plant(body, at: path)
        }

        guard let pending = try? fixtures.container.requests.pending(sealingKey: fixtures.sealingKey) else { return }
        Invariant.expect(pending.count <= 1, "one request file gave \(pending.count) requests")
        for request in pending {
            Invariant.expect(request.id == id && DataRequest.path(id: request.id) == path, "a request was read from a path its identity does not name")
            Invariant.expect((1...DataRequest.maximumAttempt).contains(request.attempt), "a request has attempt \(request.attempt)")
            if !forged {
                Invariant.expect(request.kind == kind && (try? request.decodeKey(Key.self)) == key && request.createdAt == fixtures.now,
                    "a request file opened under the shared sealing key to a request nobody sealed")
            }
            _ = try? request.decodeKey(Key.self)
            Invariant.expect(fixtures.container.requests.complete(request), "complete did not remove the request pending returned")
            Invariant.expect(fixtures.contents(at: path) == nil, "a completed request is still there")
        }
    }
}
