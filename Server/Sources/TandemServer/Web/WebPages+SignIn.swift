/// The pages of `/oauth/authorize`: the sign-in form, the one-click confirmation and the error
/// page shown when a request cannot be redirected.
extension WebPages {
    /// The sign-in form for `appName`, echoing the authorization request's `parameters`.
    ///
    /// - Parameters:
    ///   - formToken: The anti-forgery token (also set as a cookie).
    ///   - username: A username to prefill after a failed attempt.
    ///   - message: An error to show above the form.
    func signInForm(appName: String, parameters: [String: String], formToken: String, username: String = "", message: String? = nil) -> String {
        render(.signIn, SignInPage(
            heading: "Sign in to \(appName)", action: "/oauth/authorize", hidden: Self.hiddenFields(parameters), formToken: formToken,
            username: username, message: message))
    }

    /// The site's own sign-in form (for the SSO and cockpit pages), returning to `next`.
    func webSignInForm(next: String, formToken: String, username: String = "", message: String? = nil) -> String {
        render(.signIn, SignInPage(
            heading: "Sign in to Tandem", action: "/signin", hidden: [HiddenField(name: "next", value: next)], formToken: formToken,
            username: username, message: message))
    }

    /// "Continue as ‹username›" to `appName`, with the session- and request-bound `confirmToken`.
    func continuePage(appName: String, username: String, parameters: [String: String], confirmToken: String) -> String {
        render(.continueAs, ContinuePage(appName: appName, username: username, hidden: Self.hiddenFields(parameters), confirmToken: confirmToken))
    }

    /// A page explaining why the sign-in cannot proceed.
    func signInError(_ message: String) -> String {
        render(.message, MessagePage(heading: "Cannot sign in", message: message))
    }

    /// The authorization request's parameters as hidden fields, in the request's order.
    static func hiddenFields(_ parameters: [String: String]) -> [HiddenField] {
        AuthorizationRequest.parameterNames.compactMap { name in parameters[name].map { HiddenField(name: name, value: $0) } }
    }
}
