import Foundation
import GRDB

/// The values a refresh grant binds to the rotation statement, by the Swift expression the
/// server binds (``RotationStatement/binds``): a bearer redemption of `clientID`'s token at
/// `now`, with the server's default lifetimes (30-day tokens, a 5-second grace window whose
/// sealed successor is as long as the server's AES-GCM box of a refresh token).
struct RotationValues {
    /// What each parameter is.
    private enum Value {
        case fixed(DatabaseValue)
        case presentedHash
        case successorHash
    }

    private let values: [Value]

    /// Maps each of `binds` to its value.
    ///
    /// - Throws: ``RefreshWriteLimitFailure`` naming an expression this program has no value for
    ///   (the server's statement changed: say here what it binds).
    init(binds: [String], clientID: String, now: Int64) throws {
        let lifetime: Int64 = 30 * 24 * 3600 * 1000
        let graceWindow: Int64 = 5000
        // A refresh token is "tdr_" and 43 base64url characters; AES-GCM adds a 12-byte nonce and a 16-byte tag.
        let sealedSuccessor = Data(repeating: 0xA5, count: 12 + 47 + 16)
        values = try binds.map { expression in
            switch expression {
            case "now": .fixed(now.databaseValue)
            case "successorExpiresAt": .fixed((now + lifetime).databaseValue)
            case "rotation.successorHash": .successorHash
            case "rotation.sealedSuccessor": .fixed(sealedSuccessor.databaseValue)
            case "rotation.sealedSuccessor == nil ? nil : rotation.sealedUntil.milliseconds": .fixed((now + graceWindow).databaseValue)
            case "rotation.presentedHash": .presentedHash
            case "rotation.clientID": .fixed(clientID.databaseValue)
            case "rotation.proofJKT", "rotation.proof?.jkt", "rotation.proof?.jti", "rotation.proof?.expiresAt.milliseconds": .fixed(.null)
            default:
                throw RefreshWriteLimitFailure("the rotation statement binds `\(expression)`, which RotationValues has no value for")
            }
        }
    }

    /// The statement's arguments for redeeming `presentedHash` with `successorHash` as successor.
    func arguments(presentedHash: String, successorHash: String) -> StatementArguments {
        StatementArguments(values.map { value -> DatabaseValue in
            switch value {
            case .fixed(let fixed): fixed
            case .presentedHash: presentedHash.databaseValue
            case .successorHash: successorHash.databaseValue
            }
        })
    }
}
