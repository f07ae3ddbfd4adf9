import Foundation
import TandemAuth
import TandemProtocol

/// Tells the server which key signs the user's step-up proofs: `PUT /v1/step-up-key` with the
/// host's grant. The server keeps one key per sign-in: sending the same key again changes
/// nothing, and a sign-in that has a key cannot be given another (a new sign-in may).
///
/// ```swift
/// try await StepUpKeyRegistrar.register(stepUpKey.publicKey, with: client, tokens: coordinator)
/// ```
public enum StepUpKeyRegistrar {
    /// Registers `key` for the sign-in whose tokens `provider` holds.
    ///
    /// - Throws: ``TandemAuth/AuthError/server(status:code:description:)`` with 409 when this
    ///   sign-in already has another key; `AuthError` for any other refusal.
    public static func register(_ key: DPoPPublicKey, with client: AppClient, tokens provider: any AccessTokenProvider) async throws(AuthError) {
        let body: Data
        do {
            body = try JSONEncoder().encode(StepUpKeyDocument(publicKey: key))
        } catch {
            throw .invalidConfiguration("cannot encode the step-up key: \(error)")
        }
        let request = HTTPRequest(
            method: .put, url: try client.url(APIPath.stepUpKey), headers: ["Content-Type": "application/json"], body: body)
        let response = try await client.http.adding(BearerTokenMiddleware(provider: provider, clock: client.oauth.clock)).send(request)
        guard response.isSuccess else { throw AuthError(response: response) }
    }
}
