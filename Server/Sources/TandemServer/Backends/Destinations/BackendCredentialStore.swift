import Crypto
import Foundation
import SQLKit

/// A backend destination's technical user: the name and password the server calls it with
/// (HTTP Basic) when the destination's authentication is `technical-user`.
struct BackendTechnicalUser: Sendable, Hashable, CustomStringConvertible {
    /// The technical user's name (no `:`, no control characters).
    let username: String
    /// Its password; never logged, never shown.
    let password: String

    /// The longest name or password accepted, in bytes.
    static let maximumLength = 256

    /// `Authorization: Basic …` (RFC 7617, UTF-8).
    var basicAuthorization: String { "Basic " + Data("\(username):\(password)".utf8).base64EncodedString() }

    /// Names the user, never the password.
    var description: String { "technical user \(username.debugDescription)" }

    /// Refuses a name that is empty, holds a `:` or a control character, or either part over
    /// ``maximumLength`` bytes; the reason says which.
    static func check(username: String, password: String) -> String? {
        guard !username.isEmpty, username.utf8.count <= maximumLength else { return "the technical user's name must be 1–\(maximumLength) bytes" }
        guard !username.contains(":"), username.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            return "the technical user's name may not hold ':' or control characters (HTTP Basic)"
        }
        guard !password.isEmpty, password.utf8.count <= maximumLength else { return "the password must be 1–\(maximumLength) bytes" }
        guard password.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            return "the password may not hold control characters"
        }
        return nil
    }
}

/// The technical users of backend destinations. The password is stored only sealed: AES-GCM
/// under the server's sealing key (itself sealed under the system secret), with the
/// destination and the username as associated data, so a box copied onto another row does not
/// open. Removed with its destination (``BackendDestinationStore/remove(named:)``).
struct BackendCredentialStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    /// Stores `user` as `destination`'s technical user, replacing any before.
    func store(_ user: BackendTechnicalUser, destination: String, sealingKey: Data, now: Timestamp) async throws(StorageError) {
        let sealed: Data
        do {
            let box = try AES.GCM.seal(
                Data(user.password.utf8), using: SymmetricKey(data: sealingKey),
                authenticating: Self.associatedData(destination: destination, username: user.username))
            guard let combined = box.combined else { throw StorageError.corruptRecord("AES-GCM produced no combined box") }
            sealed = combined
        } catch {
            throw .corruptRecord("sealing the technical user of \(destination) failed: \(error)")
        }
        try await connector.perform("storing a backend credential") { database in
            try await database.raw("""
                INSERT INTO backend_credentials (destination, username, sealed_password, updated_at)
                VALUES (\(bind: destination), \(bind: user.username), \(bind: sealed), \(bind: now.milliseconds))
                ON CONFLICT (destination) DO UPDATE SET username = excluded.username, sealed_password = excluded.sealed_password,
                    updated_at = excluded.updated_at
                """).run()
        }
    }

    /// `destination`'s technical user, opened; `nil` when it has none.
    ///
    /// - Throws: ``StorageError/corruptRecord(_:)`` when the password does not open (another
    ///   sealing key, or a tampered row).
    func technicalUser(of destination: String, sealingKey: Data) async throws(StorageError) -> BackendTechnicalUser? {
        let row = try await connector.perform("reading a backend credential") { database in
            try await database.raw("""
                SELECT username, sealed_password FROM backend_credentials WHERE destination = \(bind: destination)
                """).first()
        }
        guard let row else { return nil }
        do {
            let username = try row.decode(column: "username", as: String.self)
            let password = try AES.GCM.open(
                AES.GCM.SealedBox(combined: try row.decode(column: "sealed_password", as: Data.self)), using: SymmetricKey(data: sealingKey),
                authenticating: Self.associatedData(destination: destination, username: username))
            guard let text = String(data: password, encoding: .utf8) else { throw StorageError.corruptRecord("not UTF-8") }
            return BackendTechnicalUser(username: username, password: text)
        } catch {
            throw .corruptRecord("the technical user of \(destination) does not open: \(error)")
        }
    }

    /// The name of `destination`'s technical user, without opening its password.
    func username(of destination: String) async throws(StorageError) -> String? {
        let row = try await connector.perform("reading a backend credential") { database in
            try await database.raw("SELECT username FROM backend_credentials WHERE destination = \(bind: destination)").first()
        }
        do {
            return try row?.decode(column: "username", as: String.self)
        } catch {
            throw .corruptRecord("backend_credentials of \(destination): \(error)")
        }
    }

    private static func associatedData(destination: String, username: String) -> Data {
        Data("tandem.backend-credential.v1:\(destination.utf8.count):\(destination):\(username)".utf8)
    }
}
