import Foundation
import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// `PUT /v1/step-up-key`: the host registers the public half of its step-up key
/// (``StepUpKeyDocument``: `{"jwk": {"kty": "EC", "crv": "P-256", "x": …, "y": …}}`) for the
/// sign-in its token was issued from; its step-up proofs (``StepUpProof``) must then be signed
/// by that key.
///
/// The same credential as an action (``ActionActor``: scope `actions`, the host's audience, a
/// user). The answer is `200 {"jkt": …}` (the key's RFC 7638 thumbprint) when the key is
/// registered now or was already; `409 step_up_key_conflict` when the sign-in has another key —
/// one key per sign-in, so a stolen token cannot swap in its own; a new sign-in registers a new
/// key. Each registration and conflict is an audit line.
struct StepUpKeyEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// The registered keys.
    let keys: StepUpKeyStore
    /// Where the audit lines go.
    let audit: AuditLog
    /// The largest body accepted.
    let maxBodySize: Int
    /// Receives failures, never a token.
    let logger: Logger
    /// When registrations are made.
    let clock: any WallClock

    /// The answer's body.
    struct Registered: Encodable, Sendable {
        /// The key's JWK SHA-256 thumbprint.
        var jkt: String
    }

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.put("\(APIPath.stepUpKey)") { request, context in
            try await register(request, source: context.sourceKey)
        }
    }

    private func register(_ request: Request, source: String) async throws(HTTPError) -> Response {
        let actor = try await ActionActor.check(request, authorizer: authorizer, audit: audit, source: source, logger: logger, clock: clock)
        let body = try await RequestBodyReader.collectJSON(request, limit: maxBodySize)
        let key: DPoPPublicKey
        do {
            key = try JSONDecoder().decode(StepUpKeyDocument.self, from: Data(body.readableBytesView)).publicKey()
        } catch {
            throw HTTPError(ResourceErrorCode.invalidRequest, #"the body must be {"jwk": {"kty": "EC", "crv": "P-256", "x": …, "y": …}}, a P-256 public key"#)
        }
        let now = Timestamp(clock.now)
        let outcome: StepUpKeyStore.Registration
        do {
            outcome = try await keys.register(key, clientID: actor.clientID, familyID: actor.familyID, subject: actor.subject, now: now)
            switch outcome {
            case .registered:
                try await audit.record(
                    "stepup.registered", clientID: actor.clientID, userID: actor.subject, source: source,
                    detail: "step-up key \(key.thumbprint.prefix(12)) for this sign-in", now: now)
            case .alreadyRegistered:
                break
            case .conflict:
                try await audit.record(
                    "stepup.refused", clientID: actor.clientID, userID: actor.subject, source: source,
                    detail: "another step-up key \(key.thumbprint.prefix(12)) for a sign-in that has one", now: now)
            }
        } catch {
            logger.error("registering a step-up key failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        guard outcome != .conflict else {
            throw HTTPError(
                ResourceErrorCode.stepUpKeyConflict,
                "this sign-in already has another step-up key; sign in again to register a new one")
        }
        return JSONResponse.make(Registered(jkt: key.thumbprint), noStore: true)
    }
}
