#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A step-up key's enrolment: a compact JWS (ES256) of type ``type`` signed by the step-up key
/// itself, so the server learns a key only from someone who holds it. The host sends it with
/// the sign-in that the key is for — the authorization code or SSO passcode redemption, as the
/// token request's ``parameterName`` parameter — or, within a few minutes of that sign-in, to
/// ``APIPath/stepUpKey``.
///
/// Its claims are `jti`, `iat` and `htu`, the URL it is sent to (no query), so an enrolment made
/// for one endpoint is refused at another; the server accepts it for at most
/// ``defaultMaximumAge`` seconds after `iat`, long enough for an SSO sign-in's polls to carry the
/// one enrolment signed before them. Replaying one gains nothing: it names a key only its holder
/// can sign step-up proofs with, and attaches it only to a sign-in the request itself creates.
///
/// ```swift
/// let enrolment = try StepUpKeyEnrolment.make(signer: stepUpKey, url: tokenEndpoint, issuedAt: now) // the host
/// let read = try StepUpKeyEnrolment(parsing: enrolment)                                           // the server
/// try read.check(url: tokenEndpoint, now: now)
/// // read.publicKey is the key to keep for the sign-in
/// ```
public struct StepUpKeyEnrolment: Sendable, Equatable {
    /// `typ` of an enrolment.
    public static let type = "tandem-step-up-key+jwt"
    /// The token request's form parameter that carries an enrolment.
    public static let parameterName = "step_up_key"
    /// How old an enrolment may be, in seconds, unless the checker says otherwise.
    public static let defaultMaximumAge: TimeInterval = 600

    /// The step-up key, which signed it.
    public let publicKey: DPoPPublicKey
    /// `jti`.
    public let jti: String
    /// `htu`: the URL it was made for, without query and fragment.
    public let url: String
    /// `iat`.
    public let issuedAt: Date

    // MARK: - Making

    /// A signed enrolment of `signer`'s public key, for the endpoint at `url`.
    ///
    /// - Parameters:
    ///   - signer: The step-up key (signing may ask for the user's presence).
    ///   - url: The absolute URL of the endpoint it is sent to; query and fragment are left out.
    ///   - issuedAt: Now (whole seconds).
    /// - Throws: What `signer` throws (the user cancelled, the key is gone).
    public static func make(signer: any DPoPSigner, url: String, issuedAt: Date) throws -> String {
        let claims: [String: JSONValue] = [
            "jti": .string(CompactJWS.randomID()),
            "iat": .number(issuedAt.timeIntervalSince1970.rounded(.down)),
            "htu": .string(DPoPProof.normalizedURL(url) ?? url),
        ]
        return try CompactJWS.sign(type: type, claims: claims, signer: signer)
    }

    // MARK: - Reading

    /// Reads an enrolment and verifies its signature under the key in its header.
    ///
    /// - Throws: ``StepUpProofError`` for anything but a compact ES256 JWS of type ``type`` with
    ///   a P-256 public key, the claims `jti`, `iat` and `htu`, and a signature that verifies.
    public init(parsing compact: String) throws(StepUpProofError) {
        let key: DPoPPublicKey
        let claims: [String: JSONValue]
        do {
            (key, claims) = try CompactJWS.verified(compact, type: Self.type, maximumLength: StepUpProof.maximumLength)
        } catch {
            throw StepUpProofError(error)
        }
        guard case .string(let jti) = claims["jti"], !jti.isEmpty, jti.utf8.count <= 256, case .string(let url) = claims["htu"],
            case .number(let iat) = claims["iat"], iat.isFinite, iat >= 0
        else { throw .malformed("jti, iat and htu are required") }
        publicKey = key
        self.jti = jti
        self.url = url
        issuedAt = Date(timeIntervalSince1970: iat)
    }

    /// Checks that the enrolment was made for the endpoint at `url`, recently.
    ///
    /// - Parameters:
    ///   - url: The endpoint's URL as clients reach the server; query and fragment are ignored.
    ///   - now: The server's time.
    ///   - maximumAge: How many seconds ago `iat` may be.
    /// - Throws: ``StepUpProofError/urlMismatch`` or ``StepUpProofError/issuedAtOutOfWindow``.
    public func check(url: String, now: Date, maximumAge: TimeInterval = defaultMaximumAge) throws(StepUpProofError) {
        guard let expected = DPoPProof.normalizedURL(url), let actual = DPoPProof.normalizedURL(self.url), expected == actual else {
            throw .urlMismatch
        }
        let age = now.timeIntervalSince(issuedAt)
        guard age <= maximumAge, -age <= StepUpProof.allowedFutureSkew else { throw .issuedAtOutOfWindow }
    }
}
