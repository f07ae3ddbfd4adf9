/// The sign-in form: the authorization request travels in hidden fields, so the POST is
/// validated exactly like the GET; the anti-forgery token is also set as a cookie.
struct SignInPage: Sendable {
    /// "Sign in to ‹app›".
    let heading: String
    /// Where the form posts: `/oauth/authorize` or `/signin`.
    let action: String
    let hidden: [HiddenField]
    let formToken: String
    /// Prefilled after a failed attempt.
    let username: String
    /// An error shown above the form.
    let message: String?
}
