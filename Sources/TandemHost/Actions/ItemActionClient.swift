import Foundation
import TandemAuth
import TandemProtocol

/// Sends one action on a business item with the host's grant:
/// `POST /v1/destinations/{d}/{s}/{item}/actions/{action}` with `If-Match` (the ETag the user
/// saw), `Idempotency-Key` (the same on every try, so a retry returns the first result instead of
/// acting twice), where the user asked for it (`Tandem-Action-Origin`, for the server's audit)
/// and, above the step-up threshold, a `Tandem-Step-Up` proof.
///
/// ```swift
/// let answer = try await ItemActionClient(client: client, tokens: coordinator)
///     .send(.approve, on: ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1003"), ifMatch: etag, idempotencyKey: key)
/// ```
public struct ItemActionClient: Sendable {
    private let client: AppClient
    private let provider: any AccessTokenProvider

    /// A client sending with `client` and the host's `tokens` (the user's grant, with `actions`).
    public init(client: AppClient, tokens provider: any AccessTokenProvider) {
        self.client = client
        self.provider = provider
    }

    /// The URL of `action` on the item at `address`, as the proof's `htu` names it (absolute).
    public func url(_ action: ItemAction, on address: ItemAddress) throws(AuthError) -> URL {
        try client.url(APIPath.itemAction(address, action: action))
    }

    /// Sends `action` on the item at `address` and sorts the answer.
    ///
    /// - Parameters:
    ///   - ifMatch: The item's ETag as the user saw it.
    ///   - idempotencyKey: The request's key (``TandemProtocol/ItemActionRules/isValidIdempotencyKey(_:)``).
    ///   - stepUpProof: A `StepUpProof` for exactly this request, when the amount needs one.
    ///   - origin: Where the user asked for it (``TandemProtocol/ItemActionRules/originHeader``),
    ///     when the action comes from a request a widget, control or shortcut wrote.
    /// - Throws: ``TandemAuth/AuthError`` when the grant is gone (`reauthenticationRequired`,
    ///   `notSignedIn`) or the configuration makes no URL; a transport failure is
    ///   ``ItemActionAnswer/retryLater(_:)``.
    public func send(
        _ action: ItemAction, on address: ItemAddress, ifMatch: String, idempotencyKey: String,
        stepUpProof: String? = nil, origin: ItemActionRules.Origin? = nil
    ) async throws(AuthError) -> ItemActionAnswer {
        var headers: HTTPHeaders = [
            "Accept": "application/json", "If-Match": ifMatch, ItemActionRules.idempotencyKeyHeader: idempotencyKey,
        ]
        if let stepUpProof { headers[ItemActionRules.stepUpHeader] = stepUpProof }
        if let origin { headers[ItemActionRules.originHeader] = origin.rawValue }
        let request = HTTPRequest(
            method: .post, url: try url(action, on: address), headers: headers)
        let response: HTTPResponse
        do {
            response = try await client.http.adding(BearerTokenMiddleware(provider: provider, clock: client.oauth.clock)).send(request)
        } catch .transport(let reason) {
            return .retryLater(reason)
        } catch .rateLimited {
            return .retryLater("rate limited")
        }
        return Self.answer(to: response)
    }

    /// The answer a response means.
    static func answer(to response: HTTPResponse) -> ItemActionAnswer {
        let code = (try? JSONDecoder().decode(ErrorBody.self, from: response.body))?.error
        switch response.status {
        case 200:
            guard let document = try? JSONDecoder().decode(ItemActionResultDocument.self, from: response.body) else {
                return .retryLater("an action answer that does not decode")
            }
            return .done(document)
        case 412: return .conflict
        case 401 where code == ItemActionRules.stepUpRequiredError
            || response.headers["WWW-Authenticate"]?.contains(ItemActionRules.stepUpRequiredError) == true:
            return .stepUpRequired
        case 429, 500...599: return .retryLater("status \(response.status)")
        default: return .refused(status: response.status, code: code)
        }
    }

    private struct ErrorBody: Decodable {
        var error: String?
    }
}
