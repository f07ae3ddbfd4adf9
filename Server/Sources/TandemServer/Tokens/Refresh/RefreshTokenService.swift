import Foundation

/// Issues refresh tokens and redeems them with rotation, reuse detection and a grace window.
/// Every grant ends ``maxGrantLifetime`` after it was made, whatever its rotations.
///
/// Correctness rests on storage alone, so it holds across server processes sharing a database:
/// - a redemption is one conditional update (`rotated_at IS NULL`, unexpired, live family, right
///   client); exactly one concurrent redemption wins and inserts the successor;
/// - a loser inside the grace window receives the **same** successor, which the winner stored
///   sealed (AES-GCM, bound to the old token's hash) for the window only;
/// - a loser after the window (always, when the window is zero) has replayed a rotated token:
///   the family is revoked and every one of its tokens is refused from then on.
///
/// ```swift
/// let service = RefreshTokenService(tokens: database.tokens, sealer: sealer, graceWindow: .seconds(5))
/// let first = try await service.issue(userID: user.id, clientID: "widget-demo", scope: "read", audience: "tandem")
/// let next = try await service.redeem(token: first.value, clientID: "widget-demo", now: Timestamp(clock.now))
/// ```
struct RefreshTokenService: Sendable {
    /// Where tokens are stored (as hashes).
    let tokens: TokenStore
    /// How long after a rotation a retry receives the same successor.
    let graceWindow: Duration
    /// How long a refresh token lives.
    let lifetime: Duration
    /// How long a user grant lives at most, whatever its rotations.
    let maxGrantLifetime: Duration

    private let sealer: SuccessorSealer

    /// Creates the service.
    ///
    /// - Parameters:
    ///   - tokens: Where tokens are stored.
    ///   - sealer: Seals successors for the grace window (the server's sealing key).
    ///   - graceWindow: How long a retried redemption gets the same successor; zero disables it.
    ///   - lifetime: How long each refresh token lives (default 30 days).
    ///   - maxGrantLifetime: How long a grant lives at most, whatever its rotations (default 90 days).
    init(
        tokens: TokenStore, sealer: SuccessorSealer, graceWindow: Duration = .seconds(5), lifetime: Duration = .seconds(30 * 24 * 3600),
        maxGrantLifetime: Duration = .seconds(90 * 24 * 3600)
    ) {
        self.tokens = tokens
        self.maxGrantLifetime = maxGrantLifetime
        self.sealer = sealer
        self.graceWindow = max(graceWindow, .zero)
        self.lifetime = lifetime
    }

    /// Starts a new token family and returns its first refresh token.
    ///
    /// - Parameters:
    ///   - userID: The user the grant acts for.
    ///   - clientID: The client it is issued to.
    ///   - scope: The granted scope.
    ///   - audience: The audience of access tokens minted from it.
    ///   - now: The issue time; the grant ends ``maxGrantLifetime`` after it.
    func issue(
        userID: String, clientID: String, scope: String, audience: String, now: Timestamp
    ) async throws(TokenError) -> RefreshToken {
        try await issueGrant(userID: userID, clientID: clientID, scope: scope, audience: audience, now: now).refreshToken
    }

    /// ``issue(userID:clientID:scope:audience:now:)``, also returning the new family, for a
    /// caller that signs an access token for it at once (no second read).
    ///
    /// - Parameter dpopJKT: The thumbprint of the DPoP key to bind the grant to, if any.
    func issueGrant(
        userID: String, clientID: String, scope: String, audience: String, dpopJKT: String? = nil, now: Timestamp
    ) async throws(TokenError) -> (refreshToken: RefreshToken, family: TokenFamily) {
        let family = TokenFamily(
            id: UUID().uuidString.lowercased(), clientID: clientID, userID: userID, scope: scope,
            audience: audience, createdAt: now, revokedAt: nil, expiresAt: now.adding(maxGrantLifetime), dpopJKT: dpopJKT)
        let token = SecretToken.generate(.refreshToken)
        do {
            try await tokens.createFamily(family, tokenHash: SecretToken.hash(token), expiresAt: now.adding(lifetime))
        } catch {
            throw .storage(error)
        }
        return (RefreshToken(value: token, familyID: family.id), family)
    }

    /// Redeems a refresh token for its successor.
    ///
    /// - Parameters:
    ///   - token: The refresh token presented.
    ///   - clientID: The client presenting it.
    ///   - proofJKT: The thumbprint of the key of the request's DPoP proof, if it sent one: a
    ///     grant bound to a key redeems only for that key (``TokenError/dpopKeyMismatch``, with
    ///     nothing changed, otherwise); a bearer grant becomes bound to it.
    ///   - now: The time of the redemption.
    /// - Throws: ``TokenError/invalidGrant(_:)`` with the reason (a token replayed after the
    ///   grace window also revokes its family); ``TokenError/storage(_:)`` when the database fails.
    func redeem(token: String, clientID: String, proofJKT: String? = nil, now: Timestamp) async throws(TokenError) -> Redemption {
        guard token.hasPrefix(SecretToken.Kind.refreshToken.rawValue) else { throw .invalidGrant(.unknownToken) }
        let presentedHash = SecretToken.hash(token)
        let successor = SecretToken.generate(.refreshToken)
        let sealed = graceWindow > .zero ? try sealer.seal(successor, boundTo: presentedHash) : nil
        let rotation = RefreshTokenRotation(
            presentedHash: presentedHash, clientID: clientID, successorHash: SecretToken.hash(successor),
            sealedSuccessor: sealed, sealedUntil: now.adding(graceWindow),
            successorExpiresAt: now.adding(lifetime), now: now, proofJKT: proofJKT)
        let outcome: RotationOutcome
        do {
            outcome = try await tokens.rotate(rotation)
        } catch {
            throw .storage(error)
        }
        switch outcome {
        case .rotated(var family):
            if family.dpopJKT == nil, let proofJKT {
                // A bearer grant refreshed with a proof (its app has started requiring DPoP) is
                // bound from now on: only this key redeems the successor.
                do {
                    if try await tokens.bindFamily(id: family.id, toKey: proofJKT) { family.dpopJKT = proofJKT }
                } catch {
                    throw .storage(error)
                }
            }
            return Redemption(refreshToken: RefreshToken(value: successor, familyID: family.id), family: family, isGraceReplay: false)
        case .alreadyRotated(let family, let sealedSuccessor?):
            let same = try sealer.open(sealedSuccessor, boundTo: presentedHash)
            return Redemption(refreshToken: RefreshToken(value: same, familyID: family.id), family: family, isGraceReplay: true)
        case .alreadyRotated(let family, nil):
            do {
                try await tokens.revokeFamily(id: family.id, now: now)
            } catch {
                throw .storage(error)
            }
            throw .invalidGrant(.reused)
        case .familyRevoked:
            throw .invalidGrant(.familyRevoked)
        case .expired:
            throw .invalidGrant(.expired)
        case .wrongClient:
            throw .invalidGrant(.wrongClient)
        case .keyMismatch:
            throw .dpopKeyMismatch
        case .unknown:
            throw .invalidGrant(.unknownToken)
        }
    }
}
