import Foundation
import TandemAuth
import TandemHost

/// A browser in which the user is already signed in to the ``FakeTandemServer``: it opens the
/// authorization URL there and returns the redirect the server answers with, as
/// `ASWebAuthenticationSession` hands the app its callback.
struct FakeSignInBrowser: SignInBrowser {
    /// The browser gave up: the server did not send it back to the app.
    struct NoRedirect: Error, Equatable {
        let status: Int
    }

    let server: FakeTandemServer
    /// What the browser does to the URL before opening it (a tampering page, in one test).
    var rewrite: @Sendable (URL) -> URL = { $0 }
    /// Every URL it was opened at, with the callback scheme it waited for.
    let opened = Recorder<(url: URL, callbackScheme: String)>()

    func signIn(at authorizationURL: URL, callbackScheme: String) async throws -> URL {
        opened.append((authorizationURL, callbackScheme))
        let response = try await server.send(HTTPRequest(url: rewrite(authorizationURL)))
        guard response.status == 302, let location = response.headers["Location"].flatMap(URL.init(string:)),
            location.scheme == callbackScheme
        else { throw NoRedirect(status: response.status) }
        return location
    }
}
