import Crypto
import Foundation

/// How a server key is stored in `server_keys`: `tsk1` ‖ AES-GCM nonce (12) ‖ ciphertext ‖ tag
/// (16), under a key derived from the ``SystemSecret``, with the key's id as associated data
/// (a box copied onto another row does not open). A stored value of exactly the raw key's size
/// without that prefix is a key from before sealing, in plain text.
enum ServerKeySeal {
    /// Marks a sealed key, version 1.
    static let prefix = Data("tsk1".utf8)

    /// The stored size of a sealed 32-byte key.
    static let sealedSize = prefix.count + 12 + 32 + 16

    /// Seals raw key material under `key`.
    static func seal(_ material: Data, id: String, under key: SymmetricKey) throws(ServerKeyError) -> Data {
        do {
            let box = try AES.GCM.seal(material, using: key, authenticating: associatedData(id))
            guard let combined = box.combined else { throw ServerKeyError.corrupt(keyID: id, reason: "AES-GCM produced no combined box") }
            return prefix + combined
        } catch let error as ServerKeyError {
            throw error
        } catch {
            throw .corrupt(keyID: id, reason: "sealing failed: \(error)")
        }
    }

    /// Whether `stored` is a sealed key (else it is a plain key from before sealing).
    static func isSealed(_ stored: Data) -> Bool {
        stored.count == sealedSize && stored.starts(with: prefix)
    }

    /// Opens a sealed key with the first of `secret`'s keys that fits.
    ///
    /// - Returns: The raw material, and whether it was sealed under the current secret.
    /// - Throws: ``ServerKeyError/wrongSystemSecret(keyID:)`` when none fits.
    static func open(_ stored: Data, id: String, with secret: SystemSecret) throws(ServerKeyError) -> (material: Data, underCurrent: Bool) {
        let box: AES.GCM.SealedBox
        do {
            box = try AES.GCM.SealedBox(combined: stored.dropFirst(prefix.count))
        } catch {
            throw .corrupt(keyID: id, reason: "not a sealed box: \(error)")
        }
        for (index, key) in secret.openingKeys.enumerated() {
            if let material = try? AES.GCM.open(box, using: key, authenticating: associatedData(id)) {
                return (material, index == 0)
            }
        }
        throw .wrongSystemSecret(keyID: id)
    }

    private static func associatedData(_ id: String) -> Data {
        Data("tandem.server-key.v1:\(id)".utf8)
    }
}
