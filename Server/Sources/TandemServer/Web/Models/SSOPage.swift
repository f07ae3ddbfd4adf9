/// The SSO onboarding page, desktop (QR code) or phone ("Next"): what the templates show and the
/// data the page's script needs (the passcode's public id, its expiry, the page's anti-forgery
/// token). The passcode itself is only inside the link.
struct SSOPage: Sendable {
    let appName: String
    let username: String
    /// The client id, percent-encoded for the page's own URLs.
    let clientPath: String
    /// `<scheme>://sso?config=…`.
    let link: String
    /// The QR code of `link` as SVG, made by the server (inserted unescaped).
    let qrSVG: String
    /// The passcode's public id (for the state and the decision).
    let passcodeID: String
    /// Its expiry, in milliseconds since 1970 (for the countdown).
    let expiresAt: Int64
    /// Seconds left when the page was made.
    let lifetimeSeconds: Int64
    /// The token the page's requests carry, bound to the browser session.
    let csrfToken: String
}
