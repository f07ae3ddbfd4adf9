#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemPlatform
import TandemProtocol

extension OAuthClient {
    /// Redeems an SSO passcode (`TandemProtocol/GrantType/ssoPasscode`) and, where the app asks
    /// for the desktop's approval, polls until the desktop decides: `authorization_pending` waits
    /// `interval`, `slow_down` adds five seconds to it (RFC 8628 §3.5), and `429` waits longer
    /// (the server's `Retry-After`, at least twice the last wait) instead of giving up, for as
    /// long as `timeout` allows: many phones behind one address must not abort onboarding.
    /// Cancellation stops the wait. The waits and the deadline run on the client's clock. With a
    /// ``dpopKey`` every poll carries a proof, and the grant is bound to that key.
    ///
    /// - Parameters:
    ///   - passcode: The link's passcode.
    ///   - deviceLabel: What the desktop page shows, such as the phone's name.
    ///   - interval: The wait between polls.
    ///   - timeout: How long to wait for the desktop at most.
    ///   - stepUpKey: The user's step-up key, enrolled with this sign-in (see
    ///     ``exchangeCode(_:for:stepUpKey:)``); `nil` for none.
    /// - Returns: The user's tokens and the account they act for, which the app shows before it
    ///   keeps them ("Sign in as ‹account›?").
    /// - Throws: ``AuthError/authorizationFailed(code:description:)`` with `access_denied`
    ///   (denied), `expired_token` (the desktop did not decide in time, or `timeout` passed) or
    ///   `invalid_grant` (unknown, expired or used passcode); ``AuthError/dpopKey(_:)`` when the
    ///   configuration requires DPoP and there is no usable key; the errors of a token request.
    public func redeemSSOPasscode(
        _ passcode: String, deviceLabel: String, interval: Duration = .seconds(5), timeout: Duration = .seconds(180),
        stepUpKey: (any DPoPSigner)? = nil
    ) async throws(AuthError) -> SSOGrant {
        // The device's own secret: only this app instance can collect what the desktop approves.
        var generator = SystemRandomNumberGenerator()
        let deviceSecret = "tdv_" + Base64URL.encode((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        let signer = try proofSigner(dpopKey, required: configuration.dpopRequired)
        var parameters: [(String, String?)] = [
            ("grant_type", GrantType.ssoPasscode.rawValue), ("client_id", configuration.clientID), ("sso_passcode", passcode),
            ("device_secret", deviceSecret), ("device_label", deviceLabel), ("scope", configuration.scopes.isEmpty ? nil : configuration.scopes.joined(separator: " ")),
        ]
        // Signed once: the polls that follow carry the same enrolment (one Face ID prompt).
        if let stepUpKey { parameters.append((StepUpKeyEnrolment.parameterName, try await enrolment(of: stepUpKey))) }
        let deadline = clock.now.addingTimeInterval(timeout.timeInterval)
        var wait = interval
        while true {
            let response = try await sendTokenRequest(parameters, signer: signer)
            if response.isSuccess {
                let tokens = try TokenSet(tokenEndpointAnswer: response, now: clock.now, sentProof: signer != nil)
                let account = (try? JSONDecoder().decode(TokenResponse.self, from: response.body))?.account
                return SSOGrant(tokens: tokens, account: account)
            }
            if response.status == 429 {
                let retryAfter = response.headers["Retry-After"].flatMap { Int($0) }.map { Duration.seconds(max($0, 1)) } ?? .zero
                wait = max(wait * 2, retryAfter)
                try await pause(wait, until: deadline)
                continue
            }
            let error = try? JSONDecoder().decode(OAuthErrorResponse.self, from: response.body)
            switch error?.code {
            case .authorizationPending: break
            case .slowDown where response.status == 400: wait += .seconds(5)
            case .accessDenied, .expiredToken, .invalidGrant:
                throw .authorizationFailed(code: error?.error ?? "invalid_grant", description: error?.errorDescription)
            default:
                throw AuthError(response: response)
            }
            try await pause(wait, until: deadline)
        }
    }

    /// Waits `wait` before the next poll, unless that passes `deadline`.
    private func pause(_ wait: Duration, until deadline: Date) async throws(AuthError) {
        guard clock.now.addingTimeInterval(wait.timeInterval) < deadline else {
            throw .authorizationFailed(code: OAuthErrorCode.expiredToken.rawValue, description: "the desktop did not approve in time")
        }
        do {
            try await clock.sleep(for: wait)
        } catch {
            throw .transport("cancelled while waiting for the desktop's approval")
        }
    }
}
