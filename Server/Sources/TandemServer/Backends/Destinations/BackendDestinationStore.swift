import Crypto
import Foundation
import SQLKit
import TandemBackends

/// The destinations whose data lives in a customer's backend, each kept as its validated
/// document (``BackendDestination``). A name is either a stored destination (rows a back office
/// wrote) or a backend one, never both.
///
/// ```swift
/// let outcome = try await database.backendDestinations.save(destination, now: now)
/// let erp = try await database.backendDestinations.destination(named: "erp")
/// ```
struct BackendDestinationStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// What ``save(_:now:)`` did.
    enum Saved: Sendable, Equatable {
        /// A new destination.
        case created
        /// The destination's document was replaced.
        case replaced
        /// A stored destination (with rows) has this name; nothing was saved.
        case nameTaken
    }

    /// Saves `destination` (already validated), replacing a backend destination of that name.
    func save(_ destination: BackendDestination, now: Timestamp) async throws(StorageError) -> Saved {
        let document = String(decoding: destination.document(), as: UTF8.self)
        return try await connector.performTransaction("saving a backend destination") { database in
            let stored = try await database.raw("SELECT name FROM destinations WHERE name = \(bind: destination.name)").first()
            guard stored == nil else { return .nameTaken }
            let existing = try await database.raw("SELECT name FROM backend_destinations WHERE name = \(bind: destination.name)").first()
            try await database.raw("""
                INSERT INTO backend_destinations (name, kind, document, updated_at)
                VALUES (\(bind: destination.name), \(bind: destination.protocolKind.rawValue), \(bind: document), \(bind: now.milliseconds))
                ON CONFLICT (name) DO UPDATE SET kind = excluded.kind, document = excluded.document, updated_at = excluded.updated_at
                """).run()
            return existing == nil ? .created : .replaced
        }
    }

    /// The backend destination named `name`, or `nil`.
    ///
    /// - Throws: ``StorageError/queryFailed(operation:message:)`` also for a stored document that
    ///   no longer validates (it is never used half-read).
    func destination(named name: String) async throws(StorageError) -> BackendDestination? {
        let document = try await connector.perform("reading a backend destination") { database in
            try await database.raw("SELECT document FROM backend_destinations WHERE name = \(bind: name)").first()?
                .decode(column: "document", as: String.self)
        }
        return try document.map { text throws(StorageError) in try Self.read(text, name: name) }
    }

    /// The backend destination named `name` with the SHA-256 of its stored document (which
    /// changes whenever an operator saves it), or `nil`.
    ///
    /// - Throws: as ``destination(named:)``.
    func configured(named name: String) async throws(StorageError) -> ConfiguredBackendDestination? {
        let document = try await connector.perform("reading a backend destination") { database in
            try await database.raw("SELECT document FROM backend_destinations WHERE name = \(bind: name)").first()?
                .decode(column: "document", as: String.self)
        }
        guard let document else { return nil }
        let digest = SHA256.hash(data: Data(document.utf8)).map { String(format: "%02x", $0) }.joined()
        return ConfiguredBackendDestination(destination: try Self.read(document, name: name), fingerprint: digest)
    }

    /// Every backend destination, by name.
    func destinations() async throws(StorageError) -> [BackendDestination] {
        let rows = try await connector.perform("listing backend destinations") { database in
            try await database.raw("SELECT name, document FROM backend_destinations ORDER BY name").all().map { row in
                (try row.decode(column: "name", as: String.self), try row.decode(column: "document", as: String.self))
            }
        }
        var destinations: [BackendDestination] = []
        for (name, document) in rows { destinations.append(try Self.read(document, name: name)) }
        return destinations
    }

    /// Removes the backend destination named `name`, and its technical user's credentials;
    /// whether there was one.
    func remove(named name: String) async throws(StorageError) -> Bool {
        try await connector.performTransaction("removing a backend destination") { database in
            try await database.raw("DELETE FROM backend_credentials WHERE destination = \(bind: name)").run()
            return !(try await database.raw("DELETE FROM backend_destinations WHERE name = \(bind: name) RETURNING name").all().isEmpty)
        }
    }

    private static func read(_ document: String, name: String) throws(StorageError) -> BackendDestination {
        do {
            return try BackendDestination.decode(Data(document.utf8))
        } catch {
            throw .queryFailed(operation: "reading backend destination \(name.debugDescription)", message: error.description)
        }
    }
}
