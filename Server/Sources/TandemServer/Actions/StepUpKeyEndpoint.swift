import Foundation
import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// `PUT /v1/step-up-key`: a host enrols its step-up key for its sign-in after the fact
/// (``StepUpKeyDocument``: a ``StepUpKeyEnrolment`` the key signed for this URL). A key
/// normally comes with the sign-in itself; this endpoint is for a host that signed in without
/// one, and only shortly after: a later enrolment needs a fresh sign-in.
///
/// The same credential as an action (``ActionActor``: scope `actions`, the host's audience, a
/// user). The answers: `200 {"jkt": …}` (the key's RFC 7638 thumbprint) when the key is enrolled
/// now or was already; `409 step_up_key_conflict` when the sign-in has another key — one key
/// per sign-in, so a stolen token cannot swap in its own; `401 insufficient_user_authentication`
/// (with `max_age`) when the sign-in is older than ``enrolmentWindow``; `400` for an enrolment
/// that does not verify, or for a key that is the sign-in's DPoP key or its widgets' key. Each
/// enrolment is an audit line (`stepup.enrolled`); each refusal goes through ``ActionRefusals``
/// (`stepup.refused`).
struct StepUpKeyEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// The enrolled keys.
    let keys: StepUpKeyStore
    /// The sign-ins, for their age.
    let tokens: TokenStore
    /// Where enrolments are recorded.
    let audit: AuditLog
    /// How refusals are limited and audited.
    let refusals: ActionRefusals
    /// How long after a sign-in its key may still be enrolled here.
    let enrolmentWindow: Duration
    /// The issuer URL: the origin an enrolment's `htu` names.
    let issuer: String
    /// The largest body accepted.
    let maxBodySize: Int
    /// Receives failures, never a token.
    let logger: Logger
    /// When enrolments are made.
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
        let actor = try await ActionActor.check(request, authorizer: authorizer, refusals: refusals, source: source, logger: logger, clock: clock)
        let body = try await RequestBodyReader.collectJSON(request, limit: maxBodySize)
        let now = Timestamp(clock.now)
        let key: DPoPPublicKey
        do {
            let document = try JSONDecoder().decode(StepUpKeyDocument.self, from: Data(body.readableBytesView))
            let enrolment = try StepUpKeyEnrolment(parsing: document.enrolment)
            try enrolment.check(url: APIPath.absolute(APIPath.stepUpKey, issuer: issuer), now: now.date)
            key = enrolment.publicKey
        } catch {
            try await refuse(
                HTTPError(ResourceErrorCode.invalidRequest, #"the body must be {"enrolment": …}, a step-up key enrolment signed by the key for this URL"#),
                actor: actor, detail: "an enrolment that does not verify", source: source, now: now)
        }
        do {
            if let enrolled = try await keys.thumbprint(clientID: actor.clientID, familyID: actor.familyID) {
                guard enrolled == key.thumbprint else {
                    try await refuse(
                        HTTPError(
                            ResourceErrorCode.stepUpKeyConflict, "this sign-in already has another step-up key; sign in again to enrol a new one"),
                        actor: actor, detail: "another step-up key \(key.thumbprint.prefix(12)) for a sign-in that has one", source: source, now: now)
                }
                return JSONResponse.make(Registered(jkt: key.thumbprint), noStore: true)
            }
            guard let signIn = try await tokens.family(id: actor.familyID), signIn.createdAt.adding(enrolmentWindow) >= now else {
                let seconds = enrolmentWindow.components.seconds
                let message = "a step-up key is enrolled with the sign-in or within \(seconds) s of it: sign in again to enrol one"
                try await refuse(
                    HTTPError(
                        ResourceErrorCode.insufficientUserAuthentication, message,
                        challenge: #"Bearer realm="tandem", error="insufficient_user_authentication", max_age=\#(seconds)"#),
                    actor: actor, detail: "an enrolment \(seconds) s or more after the sign-in", source: source, now: now)
            }
            switch try await keys.register(key, clientID: actor.clientID, familyID: actor.familyID, subject: actor.subject, now: now) {
            case .registered:
                try await audit.record(
                    "stepup.enrolled", clientID: actor.clientID, userID: actor.subject, source: source,
                    detail: "step-up key \(key.thumbprint.prefix(12)) enrolled after the sign-in \(actor.familyID)", now: now)
            case .alreadyRegistered:
                break
            case .conflict:
                try await refuse(
                    HTTPError(ResourceErrorCode.stepUpKeyConflict, "this sign-in already has another step-up key; sign in again to enrol a new one"),
                    actor: actor, detail: "another step-up key \(key.thumbprint.prefix(12)) for a sign-in that has one", source: source, now: now)
            case .keyInUse:
                try await refuse(
                    HTTPError(ResourceErrorCode.invalidRequest, TokenError.stepUpKeyMisuse.description),
                    actor: actor, detail: "the sign-in's DPoP key or widgets' key offered as its step-up key", source: source, now: now)
            }
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.error("enrolling a step-up key failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        return JSONResponse.make(Registered(jkt: key.thumbprint), noStore: true)
    }

    private func refuse(_ error: HTTPError, actor: ActionActor, detail: String, source: String, now: Timestamp) async throws(HTTPError) -> Never {
        try await refusals.refuse(error, kind: "stepup.refused", clientID: actor.clientID, userID: actor.subject, source: source, detail: detail, now: now)
    }
}
