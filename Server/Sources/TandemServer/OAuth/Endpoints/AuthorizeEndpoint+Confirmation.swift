import Hummingbird

extension AuthorizeEndpoint {
    /// The "Continue as ‹user›" click: checks the session, the request and the token bound to
    /// both, records the client as confirmed on the session and redirects with a code.
    func confirm(_ form: FormBody, request: Request) async -> Response {
        var parameters = form.fields
        parameters["confirm_token"] = nil
        do {
            let authorization: AuthorizationRequest
            switch try await validate(parameters) {
            case .success(let valid): authorization = valid.0
            case .failure(let refusal): return refusal.response
            }
            guard let session = try await liveSession(request), let presented = form["confirm_token"],
                  SessionConfirmation.isValid(presented, session: session.secret, for: authorization)
            else {
                context.logger.notice("confirmation refused", metadata: ["client_id": "\(authorization.clientID)"])
                return HTMLResponse.make(context.pages.signInError(
                    "This confirmation expired or belongs to another request. Start the sign-in again from the app."), status: .forbidden)
            }
            let now = Timestamp(context.clock.now)
            try await context.browserSessions.recordConfirmedClient(
                sessionHash: SecretToken.hash(session.secret), clientID: authorization.clientID, now: now)
            context.logger.info("client confirmed", metadata: ["client_id": "\(authorization.clientID)", "user": "\(session.userID)"])
            return try await redirectWithCode(userID: session.userID, authorization)
        } catch {
            return unavailable(error)
        }
    }
}
