import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TandemProtocol

/// What makes an app's SSO links universal links (SECURITY.md, 24.3):
///
/// - `GET /.well-known/apple-app-site-association`: the association file iOS fetches for a
///   link host, listing each app with universal links (its `TEAMID.bundle` id and the path
///   `/sso-link/<client id>` with a `config` query). The server answers it on every host name it
///   is reached by, so a link host is simply another name of this server.
/// - `GET /sso-link/{clientId}`: what a browser shows when such a link is not handed to the app
///   (the app is not installed, or the link was opened on a computer). The passcode in the
///   query is never shown, and the page sends no referrer.
struct UniversalLinkEndpoint: Sendable {
    let apps: AppStore
    let pages: WebPages
    /// The link host of apps with an Apple app id and none of their own.
    let defaultLinkHost: String?
    let logger: Logger

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/.well-known/apple-app-site-association") { _, _ in
            await associationFile()
        }
        router.get("/sso-link/:clientID") { _, requestContext in
            await landingPage(clientID: requestContext.parameters.get("clientID") ?? "")
        }
    }

    private func associationFile() async -> Response {
        do {
            let document = AppleAppSiteAssociation(apps: try await apps.apps(), defaultHost: defaultLinkHost)
            return Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "max-age=3600"],
                body: .init(byteBuffer: ByteBuffer(bytes: document.json)))
        } catch {
            logger.error("listing the apps for apple-app-site-association failed", metadata: ["error": "\(error)"])
            return Response(status: .serviceUnavailable, headers: [.retryAfter: "30"])
        }
    }

    private func landingPage(clientID: String) async -> Response {
        let app = try? await apps.app(clientID: clientID)
        let name = app?.universalLinks(defaultHost: defaultLinkHost) != nil ? app?.name : nil
        let page = MessagePage(
            heading: name.map { "Open this code with \($0)" } ?? "Not a sign-in link of this server",
            message: name.map {
                "This sign-in code opens the \($0) app on a phone. If you see this page, the app is not installed here or the "
                    + "link was opened on a computer: install \($0) on your phone, then scan the code on the desktop page again."
            } ?? "No app of this server signs in with this link.")
        var response = HTMLResponse.make(pages.render(.message, page), status: name == nil ? .notFound : .ok)
        // The query holds the passcode: it must not travel on in a Referer header.
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        return response
    }
}
