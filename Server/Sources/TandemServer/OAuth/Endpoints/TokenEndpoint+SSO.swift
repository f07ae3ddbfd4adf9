import Hummingbird
import TandemProtocol

extension TokenEndpoint {
    /// The SSO passcode grant (`GrantType/ssoPasscode`): a phone redeems the passcode the
    /// desktop page showed. Limited per source address on top of the per-client limit; every
    /// outcome is in the audit log. While the app wants the desktop's approval the phone polls
    /// with the same passcode and device secret and gets `authorization_pending` or `slow_down`
    /// (400, RFC 8628 §3.5), then the tokens of a new grant for the user, or `access_denied`,
    /// or `expired_token`. Unknown, expired, used or another client's passcodes are all
    /// `invalid_grant`, in the same words.
    func redeemSSOPasscode(_ form: FormBody, app: AppRecord, source: String) async throws -> Response {
        guard let passcode = form["sso_passcode"], let deviceSecret = form["device_secret"] else {
            throw HTTPError(.invalidRequest, "sso_passcode and device_secret are required")
        }
        guard deviceSecret.utf8.count >= 32, deviceSecret.utf8.count <= 256 else {
            throw HTTPError(.invalidRequest, "device_secret must be 32 to 256 characters of randomness")
        }
        let now = Timestamp(context.clock.now)
        if case .limited(let seconds) = context.ssoLimiter.acquire("sso:" + source) {
            try await context.sso.audit.record(
                "sso.rate-limited", clientID: app.clientID, userID: nil, source: source, detail: "too many redemptions from this address",
                now: now)
            throw HTTPError.tooManyRequests(retryAfter: seconds)
        }
        guard app.ssoEnabled else {
            throw HTTPError(.unauthorizedClient, "cross-context SSO is not enabled for this app")
        }
        let outcome = try await context.sso.redeem(
            passcode: passcode, clientID: app.clientID, deviceSecret: deviceSecret, deviceLabel: form["device_label"] ?? "a device",
            confirmation: app.ssoConfirmation, source: source)
        switch outcome {
        case .granted(let userID):
            let (refreshToken, family) = try await context.refreshTokens.issueGrant(
                userID: userID, clientID: app.clientID, scope: OAuthScope.userDefault, audience: OAuthScope.apiAudience, now: now)
            context.logger.info("sso passcode redeemed", metadata: ["client_id": "\(app.clientID)", "family": "\(family.id)"])
            let accessToken = try await context.accessTokens.sign(for: family, scope: family.scope, now: now)
            return JSONResponse.raw(
                TokenResponse(
                    accessToken: accessToken, expiresIn: context.accessTokens.lifetime.components.seconds,
                    refreshToken: refreshToken.value, scope: family.scope
                ).json,
                noStore: true)
        case .pending:
            throw HTTPError(.authorizationPending, "waiting for the desktop to approve this device")
        case .slowDown:
            throw HTTPError(.slowDown, "poll every \(context.sso.pollInterval.components.seconds) s", status: .badRequest)
        case .denied:
            throw HTTPError(.accessDenied, "the desktop denied this device")
        case .expired:
            throw HTTPError(.expiredToken, "the desktop did not approve in time; scan a new code")
        case .invalid(let reason):
            context.logger.notice("sso passcode refused", metadata: ["client_id": "\(app.clientID)", "reason": "\(reason)"])
            throw HTTPError(.invalidGrant, "the passcode is not valid")
        }
    }
}
