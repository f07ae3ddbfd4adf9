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
    /// Where a detected reuse is recorded (`token.reuse`); `nil` records none.
    var audit: AuditLog?

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
    ///   - proof: The request's DPoP proof, checked but not yet recorded, if it sent one: a grant
    ///     bound to a key redeems only for that key (``TokenError/dpopKeyMismatch``, with nothing
    ///     changed, otherwise), and the proof is recorded only when the redemption is granted.
    ///   - bindsBearerGrant: Whether a bearer grant becomes bound to the proof's key (its app
    ///     requires DPoP). A refresh token of the grant issued before that binding and presented
    ///     afterwards without the key is a reuse: the grant is revoked.
    ///   - source: The caller's address, for the audit line of a reuse.
    ///   - now: The time of the redemption.
    /// - Throws: ``TokenError/invalidGrant(_:)`` with the reason (a token replayed after the
    ///   grace window, or from before the grant's binding, also revokes its family and writes a
    ///   `token.reuse` audit line); ``TokenError/dpopProofReplayed``; ``TokenError/storage(_:)``
    ///   when the database fails.
    func redeem(
        token: String, clientID: String, proof: DPoPProofRecord? = nil, bindsBearerGrant: Bool = false, source: String? = nil,
        now: Timestamp
    ) async throws(TokenError) -> Redemption {
        guard token.hasPrefix(SecretToken.Kind.refreshToken.rawValue) else { throw .invalidGrant(.unknownToken) }
        let presentedHash = SecretToken.hash(token)
        let successor = SecretToken.generate(.refreshToken)
        let sealed = graceWindow > .zero ? try sealer.seal(successor, boundTo: presentedHash) : nil
        let rotation = RefreshTokenRotation(
            presentedHash: presentedHash, clientID: clientID, successorHash: SecretToken.hash(successor),
            sealedSuccessor: sealed, sealedUntil: now.adding(graceWindow),
            successorExpiresAt: now.adding(lifetime), now: now, proof: proof, bindsBearerGrant: bindsBearerGrant)
        let outcome: RotationOutcome
        do {
            outcome = try await tokens.rotate(rotation)
        } catch {
            throw .storage(error)
        }
        switch outcome {
        case .rotated(let family):
            return Redemption(refreshToken: RefreshToken(value: successor, familyID: family.id), family: family, isGraceReplay: false)
        case .alreadyRotated(let family, let sealedSuccessor?):
            let same = try sealer.open(sealedSuccessor, boundTo: presentedHash)
            return Redemption(refreshToken: RefreshToken(value: same, familyID: family.id), family: family, isGraceReplay: true)
        case .alreadyRotated(let family, nil):
            try await revokeForReuse(family, detail: "a refresh token was presented again after its rotation", source: source, now: now)
            throw .invalidGrant(.reused)
        case .reusedBeforeBinding(let family):
            try await revokeForReuse(
                family, detail: "a refresh token issued before the grant was bound to a DPoP key was presented again without that key",
                source: source, now: now)
            throw .invalidGrant(.reusedBeforeBinding)
        case .familyRevoked:
            throw .invalidGrant(.familyRevoked)
        case .expired:
            throw .invalidGrant(.expired)
        case .wrongClient:
            throw .invalidGrant(.wrongClient)
        case .keyMismatch:
            throw .dpopKeyMismatch
        case .proofReplayed:
            throw .dpopProofReplayed
        case .unknown:
            throw .invalidGrant(.unknownToken)
        }
    }

    /// Judges a refresh without the DPoP proof its app requires, which is refused whatever comes
    /// of this: a token of a grant bound at a refresh, issued before that binding, is a reuse of
    /// the grant (the owner and the one who bound it cannot both hold it), so the grant is revoked
    /// and audited; anything else changes nothing.
    ///
    /// - Throws: ``TokenError/invalidGrant(_:)`` with `reusedBeforeBinding` after revoking;
    ///   ``TokenError/storage(_:)``. Returns when the token says nothing of the kind.
    func refuseWithoutProof(token: String, clientID: String, source: String?, now: Timestamp) async throws(TokenError) {
        guard token.hasPrefix(SecretToken.Kind.refreshToken.rawValue) else { return }
        let status: RefreshTokenStatus?
        do {
            status = try await tokens.refreshTokenStatus(hash: SecretToken.hash(token))
        } catch {
            throw .storage(error)
        }
        guard let status, status.family.clientID == clientID, status.family.revokedAt == nil,
              let boundAt = status.family.dpopBoundAt, status.issuedAt < boundAt
        else { return }
        try await revokeForReuse(
            status.family, detail: "a refresh token issued before the grant was bound to a DPoP key was presented again without that key",
            source: source, now: now)
        throw .invalidGrant(.reusedBeforeBinding)
    }

    /// Revokes a family whose token was reused (and the extension grants exchanged from it), and
    /// writes the `token.reuse` audit line when there is an audit log.
    private func revokeForReuse(_ family: TokenFamily, detail: String, source: String?, now: Timestamp) async throws(TokenError) {
        do {
            try await tokens.revokeFamily(id: family.id, now: now)
        } catch {
            throw .storage(error)
        }
        do {
            try await audit?.record(
                "token.reuse", clientID: family.clientID, userID: family.userID, source: source,
                detail: "grant \(family.id) revoked: \(detail)", now: now)
        } catch {
            throw .storage(error)
        }
    }
}
