import Hummingbird
import TandemProtocol

extension TokenEndpoint {
    /// The SSO passcode grant (`GrantType/ssoPasscode`): a phone redeems the passcode the
    /// desktop page showed. Limited per source address on top of the per-client limit; every
    /// outcome is in the audit log. While the app wants the desktop's approval the phone polls
    /// with the same passcode and device secret and gets `authorization_pending` or `slow_down`
    /// (400, RFC 8628 §3.5), then the tokens of a new grant for the user, or `access_denied`
    /// (denied, or cancelled because a second device presented the code), or `expired_token`.
    /// Unknown, expired, used or another client's passcodes are all `invalid_grant`, in the
    /// same words; a use after the release also revokes the grant it released.
    ///
    /// The grant carries `scope` when the request names one within ``OAuthScope/userGrantable``
    /// (``OAuthScope/userDefault`` otherwise), is bound to the key of the request's DPoP proof
    /// (recorded once the passcode is granted), and keeps the step-up key the request enrols.
    func redeemSSOPasscode(
        _ form: FormBody, app: AppRecord, source: String, userAgent: String?, proof: DPoPVerifier.CheckedProof?
    ) async throws -> Response {
        guard let passcode = form["sso_passcode"], let deviceSecret = form["device_secret"] else {
            throw HTTPError(.invalidRequest, "sso_passcode and device_secret are required")
        }
        guard deviceSecret.utf8.count >= 32, deviceSecret.utf8.count <= 256 else {
            throw HTTPError(.invalidRequest, "device_secret must be 32 to 256 characters of randomness")
        }
        let scope = form["scope"].map(OAuthScope.parse) ?? OAuthScope.parse(OAuthScope.userDefault)
        guard !scope.isEmpty, scope.isSubset(of: OAuthScope.parse(OAuthScope.userGrantable)) else {
            throw HTTPError(.invalidScope, "the scope may contain only: \(OAuthScope.userGrantable)")
        }
        let stepUpKey = try enrolledStepUpKey(form, proof: proof)
        let now = Timestamp(context.clock.now)
        // Failures are charged to the source address, not polls: phones behind one address
        // (an office, a proxy) poll their own passcodes at the interval each, while a guesser's
        // unknown passcodes empty the address's bucket.
        let sourceKey = "sso:" + source
        if case .limited(let seconds) = context.ssoLimiter.check(sourceKey) {
            try await context.sso.audit.recordRefusal(
                "sso.rate-limited", clientID: app.clientID, source: source, detail: "too many failed redemptions from this address", now: now)
            throw HTTPError.tooManyRequests(retryAfter: seconds)
        }
        guard app.ssoEnabled else {
            throw HTTPError(.unauthorizedClient, "cross-context SSO is not enabled for this app")
        }
        let outcome = try await context.sso.redeem(
            passcode: passcode, clientID: app.clientID, deviceSecret: deviceSecret, deviceLabel: form["device_label"] ?? "a device",
            confirmation: app.ssoConfirmation, source: source, userAgent: userAgent)
        switch outcome {
        case .granted(let userID):
            if let proof {
                do throws(DPoPVerificationError) {
                    try await context.dpop.spend(proof.record)
                } catch {
                    throw error.httpError
                }
            }
            let (refreshToken, family) = try await context.refreshTokens.issueGrant(
                userID: userID, clientID: app.clientID, scope: scope.sorted().joined(separator: " "), audience: OAuthScope.apiAudience,
                dpopJKT: proof?.jkt, now: now)
            guard try await context.sso.recordRelease(passcode: passcode, familyID: family.id) else {
                // The passcode was presented again between its redemption and now: nothing of
                // this grant leaves the server.
                try await revokeReleasedGrant(family.id, app: app, source: source, now: now)
                throw HTTPError(.invalidGrant, "the passcode is not valid")
            }
            context.logger.info("sso passcode redeemed", metadata: ["client_id": "\(app.clientID)", "family": "\(family.id)"])
            if let stepUpKey {
                let registration = try await context.stepUpKeys.register(
                    stepUpKey, clientID: app.clientID, familyID: family.id, subject: userID, now: now)
                if registration == .registered { try await auditEnrolment(of: stepUpKey, for: family, source: source, now: now) }
            }
            let accessToken = try await context.accessTokens.sign(for: family, scope: family.scope, now: now)
            // The account, for the phone's "Sign in as …?" before it keeps the tokens.
            let account = try await context.accounts.user(id: userID)?.username
            return JSONResponse.raw(
                TokenResponse(
                    accessToken: accessToken, tokenType: family.tokenType, expiresIn: context.accessTokens.lifetime.components.seconds,
                    refreshToken: refreshToken.value, scope: family.scope, account: account
                ).json,
                noStore: true)
        case .pending:
            throw HTTPError(.authorizationPending, "waiting for the desktop to approve this device")
        case .slowDown:
            throw HTTPError(.slowDown, "poll every \(context.sso.pollInterval.components.seconds) s", status: .badRequest)
        case .denied:
            throw HTTPError(.accessDenied, "the desktop denied this device")
        case .cancelled:
            throw HTTPError(.accessDenied, "two devices tried this code, so nobody was signed in; start again with a new code")
        case .expired:
            throw HTTPError(.expiredToken, "the desktop did not approve in time; scan a new code")
        case .unknown:
            _ = context.ssoLimiter.acquire(sourceKey)
            throw HTTPError(.invalidGrant, "the passcode is not valid")
        case .invalid(let reason):
            _ = context.ssoLimiter.acquire(sourceKey)
            context.logger.notice("sso passcode refused", metadata: ["client_id": "\(app.clientID)", "reason": "\(reason)"])
            throw HTTPError(.invalidGrant, "the passcode is not valid")
        case .reused(let reason, let released):
            context.logger.notice("sso passcode reused", metadata: ["client_id": "\(app.clientID)", "reason": "\(reason)"])
            if let released { try await revokeReleasedGrant(released, app: app, source: source, now: now) }
            throw HTTPError(.invalidGrant, "the passcode is not valid")
        }
    }

    /// Revokes the grant an SSO passcode released (and the extension grants exchanged from
    /// it), on every instance through the revocation list, and audits it.
    private func revokeReleasedGrant(_ familyID: String, app: AppRecord, source: String, now: Timestamp) async throws {
        let revoked = try await context.tokens.revokeFamily(id: familyID, now: now)
        context.revocations.insert(revoked, now: now)
        try await context.sso.audit.record(
            "sso.grant-revoked", clientID: app.clientID, userID: nil, source: source,
            detail: "grant \(familyID) released by a passcode used again", now: now)
    }
}
