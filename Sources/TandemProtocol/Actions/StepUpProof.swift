#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A step-up proof: the user was present for this one action. A compact JWS (ES256) of type
/// ``type`` signed by the host's **step-up key** — a P-256 key held behind user presence (the
/// Secure Enclave with `.userPresence` on iOS; on Linux the host's vault, signing only after the
/// passcode in the foreground) whose public half the server knows from ``APIPath/stepUpKey``.
///
/// It is bound to one request: `htu` (the action's URL, no query), `action`, `if_match` (the
/// item's ETag) and `jti`, which is the request's idempotency key, so a proof executes at most
/// once. The server accepts it for at most ``defaultMaximumAge`` seconds after `iat`.
///
/// ```swift
/// let proof = try StepUpProof.make(signer: stepUpKey, url: actionURL, action: .approve,
///                                  ifMatch: row.etag, idempotencyKey: key, issuedAt: now)   // the host
/// let read = try StepUpProof(parsing: header)                                              // the server
/// try read.check(url: actionURL, action: .approve, ifMatch: ifMatch, idempotencyKey: key, now: now)
/// // and read.publicKey.thumbprint must be the key registered for the token's sign-in
/// ```
public struct StepUpProof: Sendable, Equatable {
    /// `typ` of a step-up proof.
    public static let type = "tandem-step-up+jwt"
    /// The longest proof read, in bytes.
    public static let maximumLength = 4096
    /// How old a proof may be, in seconds, unless the checker says otherwise.
    public static let defaultMaximumAge: TimeInterval = 60
    /// How far ahead of the server's clock `iat` may be, in seconds (a phone's clock runs ahead).
    public static let allowedFutureSkew: TimeInterval = 60

    /// The key that signed it.
    public let publicKey: DPoPPublicKey
    /// `jti`: the request's idempotency key.
    public let jti: String
    /// `htu`: the action's URL, without query and fragment.
    public let url: String
    /// `action`.
    public let action: ItemAction
    /// `if_match`: the ETag of the item as the user saw it.
    public let ifMatch: String
    /// `iat`.
    public let issuedAt: Date

    // MARK: - Making

    /// A signed proof for one action request, as the ``ItemActionRules/stepUpHeader`` value.
    ///
    /// - Parameters:
    ///   - signer: The step-up key (its signature is what asks for the user's presence).
    ///   - url: The action's absolute URL; its query and fragment are left out.
    ///   - action: The action.
    ///   - ifMatch: The `If-Match` the request sends (the item's ETag).
    ///   - idempotencyKey: The request's ``ItemActionRules/idempotencyKeyHeader``.
    ///   - issuedAt: Now (whole seconds).
    /// - Throws: What `signer` throws (the user cancelled, the key is gone).
    public static func make(
        signer: any DPoPSigner, url: String, action: ItemAction, ifMatch: String, idempotencyKey: String, issuedAt: Date
    ) throws -> String {
        let claims: [String: JSONValue] = [
            "jti": .string(idempotencyKey),
            "iat": .number(issuedAt.timeIntervalSince1970.rounded(.down)),
            "htu": .string(DPoPProof.normalizedURL(url) ?? url),
            "if_match": .string(ifMatch),
            "action": .string(action.rawValue),
        ]
        return try CompactJWS.sign(type: type, claims: claims, signer: signer)
    }

    // MARK: - Reading

    /// Reads a proof and verifies its signature under the key in its header.
    ///
    /// - Throws: ``StepUpProofError`` for anything but a compact ES256 JWS of type ``type``
    ///   with a P-256 public key, the claims `jti`, `iat`, `htu`, `if_match` and `action` of the
    ///   right types, and a signature that verifies.
    public init(parsing compact: String) throws(StepUpProofError) {
        let key: DPoPPublicKey
        let claims: [String: JSONValue]
        do {
            (key, claims) = try CompactJWS.verified(compact, type: Self.type, maximumLength: Self.maximumLength)
        } catch {
            throw StepUpProofError(error)
        }
        guard case .string(let jti) = claims["jti"], ItemActionRules.isValidIdempotencyKey(jti),
            case .string(let url) = claims["htu"], case .string(let ifMatch) = claims["if_match"], !ifMatch.isEmpty,
            case .number(let iat) = claims["iat"], iat.isFinite, iat >= 0
        else { throw .malformed("jti (an idempotency key), iat, htu and if_match are required") }
        guard case .string(let name) = claims["action"], let action = ItemAction(rawValue: name) else {
            throw .malformed("action must be one of \(ItemAction.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        publicKey = key
        self.jti = jti
        self.url = url
        self.action = action
        self.ifMatch = ifMatch
        issuedAt = Date(timeIntervalSince1970: iat)
    }

    /// Checks the proof against the action request it came with. Whether its key is the one
    /// registered for the request's sign-in is the server's check (``publicKey``).
    ///
    /// - Parameters:
    ///   - url: The action's URL as clients reach the server; query and fragment are ignored.
    ///   - action: The action requested.
    ///   - ifMatch: The request's `If-Match`.
    ///   - idempotencyKey: The request's idempotency key.
    ///   - now: The server's time.
    ///   - maximumAge: How many seconds ago `iat` may be.
    /// - Throws: ``StepUpProofError`` naming the first check that failed.
    public func check(
        url: String, action: ItemAction, ifMatch: String, idempotencyKey: String, now: Date,
        maximumAge: TimeInterval = defaultMaximumAge
    ) throws(StepUpProofError) {
        guard let expected = DPoPProof.normalizedURL(url), let actual = DPoPProof.normalizedURL(self.url), expected == actual else {
            throw .urlMismatch
        }
        guard self.action == action else { throw .actionMismatch }
        guard ConstantTime.equals(self.ifMatch, ifMatch) else { throw .ifMatchMismatch }
        guard ConstantTime.equals(jti, idempotencyKey) else { throw .idempotencyKeyMismatch }
        let age = now.timeIntervalSince(issuedAt)
        guard age <= maximumAge, -age <= Self.allowedFutureSkew else { throw .issuedAtOutOfWindow }
    }
}
