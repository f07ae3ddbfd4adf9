import HTTPTypes
import Hummingbird
import NIOCore

/// Builds the HTML responses of the sign-in pages: never cached, never framed, styled only from `/assets`.
enum HTMLResponse {
    /// The policy of pages without script. Styles from this server only, never framed. No
    /// form-action: the sign-in form's answer redirects to the app's own scheme.
    static let policy = "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'"
    /// The policy of pages with script: scripts and requests to this server only (no inline
    /// script at all), forms posting only here.
    static let scriptPolicy = policy + "; script-src 'self'; connect-src 'self'; form-action 'self'"

    /// A page with `html` as its body; `scripts` allows the page's own scripts from `/assets`.
    static func make(_ html: String, status: HTTPResponse.Status = .ok, scripts: Bool = false) -> Response {
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            .contentSecurityPolicy: scripts ? scriptPolicy : policy,
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A `302 Found` to `location`.
    static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }
}
