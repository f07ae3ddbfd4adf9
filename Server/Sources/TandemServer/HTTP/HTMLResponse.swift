import HTTPTypes
import Hummingbird
import NIOCore

/// Builds the HTML responses of the sign-in pages: never cached, never framed, styled only from `/assets`.
enum HTMLResponse {
    /// A page with `html` as its body.
    static func make(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        let headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8",
            .cacheControl: "no-store",
            // Styles from this server only, no script, never framed. No form-action: the sign-in
            // form's answer redirects to the app's own scheme.
            .contentSecurityPolicy: "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'",
            HTTPField.Name("X-Frame-Options")!: "DENY",
        ]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A `302 Found` to `location`.
    static func redirect(to location: String) -> Response {
        Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
    }
}
