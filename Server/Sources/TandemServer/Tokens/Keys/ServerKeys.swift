import Crypto
import Foundation
import TandemPlatform

/// The server's own keys, created on first start and kept in the database (`server_keys`),
/// sealed under the ``SystemSecret``.
///
/// They live in the database, not in a file, because several server processes share one
/// PostgreSQL database: a successor sealed by one process must open in another, and an access
/// token signed by one must verify in all. The first process to start stores its candidates;
/// every other process reads those. They are stored only sealed (``ServerKeySeal``): reading
/// the database without the system secret gives neither the signing key nor the sealing key.
struct ServerKeys: Sendable {
    /// 32 bytes for AES-GCM sealing of grace-window successors.
    let sealingKey: Data
    /// The P-256 private key (raw 32-byte scalar) that signs access tokens (ES256).
    let signingKey: P256.Signing.PrivateKey

    /// The ids of the stored keys.
    static let sealingKeyID = "sealing.v1"
    static let signingKeyID = "signing.es256.v1"

    /// Loads the keys from `store`, creating them if this is the first start.
    ///
    /// Keys stored in plain text (by a server from before sealing) or sealed under a previous
    /// secret are sealed again under the current one.
    ///
    /// ```swift
    /// let keys = try await ServerKeys.load(from: database.serverKeys, secret: SystemSecret(current: secret))
    /// ```
    ///
    /// - Parameters:
    ///   - store: Where the sealed keys are kept.
    ///   - secret: The system secret (and any previous ones) the keys are sealed under.
    ///   - clock: The creation time of keys created or sealed again (default the system's).
    /// - Throws: ``ServerKeyError/wrongSystemSecret(keyID:)`` when no given secret opens a
    ///   stored key (nothing is changed), ``ServerKeyError/storage(_:)``, or
    ///   ``ServerKeyError/corrupt(keyID:reason:)`` for unusable material.
    static func load(
        from store: ServerKeyStore, secret: SystemSecret, clock: any WallClock = SystemClock()
    ) async throws(ServerKeyError) -> ServerKeys {
        let now = Timestamp(clock.now)
        let sealing = try await material(
            id: sealingKeyID, fresh: SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }, store: store, secret: secret, now: now)
        let signing = try await material(
            id: signingKeyID, fresh: P256.Signing.PrivateKey().rawRepresentation, store: store, secret: secret, now: now)
        do {
            return ServerKeys(sealingKey: sealing, signingKey: try P256.Signing.PrivateKey(rawRepresentation: signing))
        } catch {
            throw .corrupt(keyID: signingKeyID, reason: "not a P-256 key: \(error)")
        }
    }

    /// One key's raw material: the stored one (opened, and sealed again under the current
    /// secret if it was not), or `fresh` if none was stored.
    private static func material(
        id: String, fresh: Data, store: ServerKeyStore, secret: SystemSecret, now: Timestamp
    ) async throws(ServerKeyError) -> Data {
        let candidate = try ServerKeySeal.seal(fresh, id: id, under: secret.current)
        let stored: Data
        do {
            stored = try await store.serverKey(id: id, candidate: candidate, now: now)
        } catch {
            throw .storage(error)
        }
        let material: Data
        if ServerKeySeal.isSealed(stored) {
            let opened = try ServerKeySeal.open(stored, id: id, with: secret)
            guard !opened.underCurrent else { return opened.material }
            material = opened.material
        } else {
            guard stored.count == fresh.count else { throw .corrupt(keyID: id, reason: "\(stored.count) bytes, neither sealed nor a plain key") }
            material = stored
        }
        do {
            // Conditional on the stored value: a process sealing it at the same time wins alone.
            try await store.replaceServerKey(id: id, expected: stored, with: try ServerKeySeal.seal(material, id: id, under: secret.current))
        } catch let error as ServerKeyError {
            throw error
        } catch let error as StorageError {
            throw .storage(error)
        } catch {
            throw .corrupt(keyID: id, reason: "\(error)")
        }
        return material
    }
}
