import Foundation
import TandemAuth
import TandemProtocol

/// Enrols the user's step-up key for a sign-in after the fact: `PUT /v1/step-up-key` with the
/// host's grant and a ``TandemProtocol/StepUpKeyEnrolment`` the key signs. A key normally comes
/// with the sign-in itself (``AuthenticationStep``'s `stepUpKey`); the server takes one here only
/// within a few minutes of the sign-in, and one key per sign-in: sending the same key again
/// changes nothing, and a sign-in that has a key cannot be given another (a new sign-in may).
///
/// ```swift
/// try await StepUpKeyRegistrar.register(stepUpKey, with: client, tokens: coordinator)
/// ```
public enum StepUpKeyRegistrar {
    /// Enrols `key` for the sign-in whose tokens `provider` holds.
    ///
    /// - Throws: ``TandemAuth/AuthError/server(status:code:description:)`` with 409 when this
    ///   sign-in already has another key, 401 `insufficient_user_authentication` when the sign-in
    ///   is too old to enrol one now (sign in again); ``TandemAuth/AuthError/stepUpKey(_:)`` when
    ///   the key cannot sign; `AuthError` for any other refusal.
    public static func register(_ key: any DPoPSigner, with client: AppClient, tokens provider: any AccessTokenProvider) async throws(AuthError) {
        let url = try client.url(APIPath.stepUpKey)
        let body: Data
        do {
            let enrolment = try StepUpKeyEnrolment.make(signer: key, url: url.absoluteString, issuedAt: client.oauth.clock.now)
            body = try JSONEncoder().encode(StepUpKeyDocument(enrolment: enrolment))
        } catch {
            throw .stepUpKey("the step-up key cannot sign its enrolment: \(error)")
        }
        let request = HTTPRequest(method: .put, url: url, headers: ["Content-Type": "application/json"], body: body)
        let response = try await client.http.adding(BearerTokenMiddleware(provider: provider, clock: client.oauth.clock)).send(request)
        guard response.isSuccess else { throw AuthError(response: response) }
    }
}
