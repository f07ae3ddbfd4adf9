/// The HTML of the one-click confirmation shown when a browser session already exists:
/// "Continue as ‹user›" (a POST carrying the ``SessionConfirmation`` token) or "Use another
/// account" (the same request again with `prompt=login`). Every value is escaped.
enum ConfirmationPage {
    /// The page for `username` signing in to `appName`.
    ///
    /// - Parameters:
    ///   - appName: The client's display name.
    ///   - username: The signed-in user.
    ///   - parameters: The authorization request's parameters, echoed as hidden fields.
    ///   - confirmToken: The session- and request-bound token.
    static func html(appName: String, username: String, parameters: [String: String], confirmToken: String) -> String {
        let hidden = LoginPage.hiddenFields(parameters)
        let app = LoginPage.escape(appName)
        let user = LoginPage.escape(username)
        return LoginPage.page(title: "Continue", body: """
            <h1>Continue to \(app)?</h1>
            <p>You are signed in as <strong>\(user)</strong>. \(app) asks to use your account.</p>
            <form method="post" action="/oauth/authorize">
              \(hidden)
              <input type="hidden" name="confirm_token" value="\(LoginPage.escape(confirmToken))">
              <button type="submit">Continue as \(user)</button>
            </form>
            <form method="get" action="/oauth/authorize">
              \(hidden)
              <input type="hidden" name="prompt" value="login">
              <button type="submit">Use another account</button>
            </form>
            """)
    }
}
