import Foundation
import TandemProtocol

// RFC 8693 token exchange: scoped extension grants.
extension RefreshTokenService {
    /// Exchanges a live user grant for a scoped extension grant (read-only scope, extension
    /// audience) with its own refresh token.
    ///
    /// There is at most one live extension grant per user grant: this one revokes the previous
    /// one. It ends when its parent does at the latest, and it is created only if the parent is
    /// live at that moment (one conditional insert; see ``TokenStore/createExtensionGrant(_:)``).
    ///
    /// ```swift
    /// let grant = try await service.issueExtensionGrant(parentID: claims.familyID, clientID: "tandem-demo")
    /// ```
    ///
    /// - Parameters:
    ///   - parentID: The user grant the subject token was minted from.
    ///   - clientID: The client exchanging; the parent must have been issued to it.
    ///   - dpopJKT: The thumbprint of the DPoP key the extension grant is bound to (the
    ///     widgets' key, whose proof came with the exchange), if any.
    ///   - proofs: The exchange's DPoP proofs, recorded in its transaction.
    ///   - now: The time of the exchange.
    /// - Throws: ``TokenError/invalidGrant(_:)`` with `invalidSubjectToken` when the parent is not
    ///   a live user grant of this client; ``TokenError/stepUpKeyMisuse`` when `dpopJKT` is the
    ///   sign-in's step-up key; ``TokenError/dpopProofReplayed``; ``TokenError/storage(_:)`` when
    ///   the database fails.
    func issueExtensionGrant(
        parentID: String, clientID: String, dpopJKT: String? = nil, proofs: [DPoPProofRecord] = [], now: Timestamp
    ) async throws(TokenError) -> ExtensionGrant {
        let token = SecretToken.generate(.refreshToken)
        let request = ExtensionGrantRequest(
            parentID: parentID, clientID: clientID, familyID: UUID().uuidString.lowercased(), scope: OAuthScope.extensionGrant,
            audience: OAuthScope.extensionAudience, tokenHash: SecretToken.hash(token), tokenExpiresAt: now.adding(lifetime),
            grantExpiresAt: now.adding(maxGrantLifetime), now: now, dpopJKT: dpopJKT, proofs: proofs)
        let outcome: ExtensionGrantOutcome
        do {
            outcome = try await tokens.createExtensionGrant(request)
        } catch {
            throw .storage(error)
        }
        switch outcome {
        case .created(let family, let replaced):
            return ExtensionGrant(refreshToken: RefreshToken(value: token, familyID: family.id), family: family, replacedFamilyIDs: replaced)
        case .parentNotLive:
            throw .invalidGrant(.invalidSubjectToken)
        case .keyIsStepUpKey:
            throw .stepUpKeyMisuse
        case .proofReplayed:
            throw .dpopProofReplayed
        }
    }
}
