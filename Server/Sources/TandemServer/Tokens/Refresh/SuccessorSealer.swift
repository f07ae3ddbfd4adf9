import Crypto
import Foundation

/// Seals a successor refresh token for the grace window: AES-GCM under the server's sealing
/// key, with the hash of the token it replaces as associated data, so a sealed box copied onto
/// another row does not open.
struct SuccessorSealer: Sendable {
    private let key: SymmetricKey

    /// A sealer over a 256-bit key.
    ///
    /// - Throws: ``TokenError/keyFailure(_:)`` when `keyMaterial` is not 32 bytes.
    init(keyMaterial: Data) throws(TokenError) {
        guard keyMaterial.count == 32 else { throw .keyFailure("the sealing key must be 32 bytes, found \(keyMaterial.count)") }
        key = SymmetricKey(data: keyMaterial)
    }

    /// Seals `successor` bound to `presentedHash`.
    func seal(_ successor: String, boundTo presentedHash: String) throws(TokenError) -> Data {
        do {
            let box = try AES.GCM.seal(Data(successor.utf8), using: key, authenticating: Self.associatedData(presentedHash))
            guard let combined = box.combined else { throw TokenError.keyFailure("AES-GCM produced no combined box") }
            return combined
        } catch let error as TokenError {
            throw error
        } catch {
            throw .keyFailure("sealing failed: \(error)")
        }
    }

    /// Opens a box sealed by ``seal(_:boundTo:)`` for the same `presentedHash`.
    func open(_ sealed: Data, boundTo presentedHash: String) throws(TokenError) -> String {
        do {
            let box = try AES.GCM.SealedBox(combined: sealed)
            let plain = try AES.GCM.open(box, using: key, authenticating: Self.associatedData(presentedHash))
            return String(decoding: plain, as: UTF8.self)
        } catch {
            throw .keyFailure("a sealed successor did not open: \(error)")
        }
    }

    private static func associatedData(_ presentedHash: String) -> Data {
        Data("tandem.refresh-successor.v1:\(presentedHash)".utf8)
    }
}
