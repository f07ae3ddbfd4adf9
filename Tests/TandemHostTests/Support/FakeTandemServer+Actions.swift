import Foundation
import TandemAuth
import TandemProtocol

/// What the fake server's action endpoint knows: the items with their ETags, the answers it
/// gave by idempotency key (a repeat gets the first), the step-up key, scripted failures, and
/// every execution.
struct FakeActions {
    /// The current ETag of each item, by id; an unknown item answers 404.
    var etags: [String: String] = [:]
    /// Items whose actions need a step-up proof.
    var stepUpItems: Set<String> = []
    /// The registered step-up key's thumbprint.
    var stepUpKey: String?
    /// Answers given by idempotency key.
    var answers: [String: HTTPResponse] = [:]
    /// Statuses to answer next, before anything else (503: the server is out of reach).
    var scripted: [Int] = []
    /// Each executed action: item, action and idempotency key.
    var executed: [(item: String, action: String, key: String)] = []
}

extension FakeTandemServer {
    /// `POST /v1/destinations/{d}/{s}/{item}/actions/{action}`: the real endpoint's rules, kept small.
    func itemAction(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        if let refusal = actionRefusal(of: request, state) { return refusal }
        if !state.actions.scripted.isEmpty {
            let status = state.actions.scripted.removeFirst()
            return Self.oauthError("server_error", "scripted", status: status)
        }
        guard let key = request.headers[ItemActionRules.idempotencyKeyHeader], let ifMatch = request.headers["If-Match"] else {
            return Self.oauthError("invalid_request", "Idempotency-Key and If-Match are required", status: 400)
        }
        if let first = state.actions.answers[key] { return first }
        let segments = request.url.path.split(separator: "/").map(String.init)  // v1 destinations d s item actions action
        let (item, action) = (segments[4], segments[6])
        guard let etag = state.actions.etags[item] else { return Self.oauthError("not_found", "no such item", status: 404) }
        guard etag == ifMatch else {
            return remember(key, Self.json(412, ["error": "precondition_failed", "current_etag": etag]), &state)
        }
        if state.actions.stepUpItems.contains(item) {
            guard let header = request.headers[ItemActionRules.stepUpHeader], let proof = try? StepUpProof(parsing: header),
                proof.publicKey.thumbprint == state.actions.stepUpKey,
                (try? proof.check(url: request.url.absoluteString, action: ItemAction(rawValue: action) ?? .approve, ifMatch: ifMatch, idempotencyKey: key, now: clock.now)) != nil
            else { return Self.oauthError(ItemActionRules.stepUpRequiredError, "a step-up proof is required", status: 401) }
        }
        let status = ItemAction(rawValue: action)?.decidedStatus ?? action
        let newTag = "\"\(item)-\(status)\""
        state.actions.etags[item] = newTag
        state.actions.executed.append((item, action, key))
        let document = ItemActionResultDocument(
            ItemAddress(destination: segments[2], entitySet: segments[3], item: item), action: ItemAction(rawValue: action) ?? .approve, status: status,
            etag: newTag, decidedAt: "2026-11-27T09:00:00Z")
        return remember(key, Self.encoded(200, document), &state)
    }

    /// `PUT /v1/step-up-key`: one key per server here (the real one keeps one per sign-in).
    func registerStepUpKey(_ request: HTTPRequest, _ state: inout State) -> HTTPResponse {
        if let refusal = actionRefusal(of: request, state) { return refusal }
        guard let body = request.body, let document = try? JSONDecoder().decode(StepUpKeyDocument.self, from: body),
            let key = try? StepUpKeyEnrolment(parsing: document.enrolment).publicKey
        else { return Self.oauthError("invalid_request", "not a step-up key enrolment", status: 400) }
        if let known = state.actions.stepUpKey, known != key.thumbprint { return Self.oauthError("conflict", "another key", status: 409) }
        state.actions.stepUpKey = key.thumbprint
        return Self.json(200, ["thumbprint": key.thumbprint])
    }

    /// A bearer token of the user's grant with `actions`, else 401 or 403.
    private func actionRefusal(of request: HTTPRequest, _ state: State) -> HTTPResponse? {
        let parts = (request.headers["Authorization"] ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, let id = state.accessTokens[parts[1]], let family = state.families[id], !family.revoked else {
            return Self.oauthError("invalid_token", "a live bearer token is required", status: 401)
        }
        guard family.scope.split(separator: " ").contains("actions") else {
            return Self.oauthError("insufficient_scope", "actions is required", status: 403)
        }
        return nil
    }

    private func remember(_ key: String, _ response: HTTPResponse, _ state: inout State) -> HTTPResponse {
        state.actions.answers[key] = response
        return response
    }

    /// Sets the items the action endpoint knows, with their ETags, and those needing step-up.
    func setActionItems(_ etags: [String: String], stepUp: Set<String> = []) {
        state.withLock {
            $0.actions.etags = etags
            $0.actions.stepUpItems = stepUp
        }
    }

    /// Makes the next `count` action requests answer `status` (such as 503).
    func failNextActions(_ count: Int, status: Int) {
        state.withLock { $0.actions.scripted += Array(repeating: status, count: count) }
    }

    /// Each executed action, in order.
    var executedActions: [(item: String, action: String, key: String)] { state.withLock { $0.actions.executed } }

    /// The current ETag of `item`.
    func actionETag(_ item: String) -> String? { state.withLock { $0.actions.etags[item] } }
}
