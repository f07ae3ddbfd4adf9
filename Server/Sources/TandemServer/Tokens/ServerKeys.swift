import Crypto
import Foundation

/// The server's own keys, created on first start and kept in the database (`server_keys`).
///
/// They live in the database, not in a file, because several server processes share one
/// PostgreSQL database: a successor sealed by one process must open in another, and an access
/// token signed by one must verify in all. The first process to start stores its candidates;
/// every other process reads those. Whoever can read the database can therefore open sealed
/// successors still inside their grace window (seconds); after it they are erased.
public struct ServerKeys: Sendable {
    /// 32 bytes for AES-GCM sealing of grace-window successors.
    public let sealingKey: Data
    /// The P-256 private key (raw 32-byte scalar) that signs access tokens (ES256).
    public let signingKey: P256.Signing.PrivateKey

    /// Loads the keys from `storage`, creating them if this is the first start.
    ///
    /// - Throws: ``TokenError/storage(_:)`` or ``TokenError/keyFailure(_:)`` for unusable material.
    public static func load(from storage: any ServerStorage, now: Timestamp = .now()) async throws(TokenError) -> ServerKeys {
        do {
            let sealing = try await storage.serverKey(id: "sealing.v1", candidate: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }, now: now)
            let signing = try await storage.serverKey(id: "signing.es256.v1", candidate: P256.Signing.PrivateKey().rawRepresentation, now: now)
            guard sealing.count == 32 else { throw TokenError.keyFailure("stored sealing key has \(sealing.count) bytes") }
            return ServerKeys(sealingKey: sealing, signingKey: try P256.Signing.PrivateKey(rawRepresentation: signing))
        } catch let error as StorageError {
            throw .storage(error)
        } catch let error as TokenError {
            throw error
        } catch {
            throw .keyFailure("stored signing key unusable: \(error)")
        }
    }
}
