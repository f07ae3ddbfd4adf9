import Foundation
import Testing

@testable import TandemServer

/// Every page template parses and renders, and whatever a page shows is escaped.
@Suite("Page templates")
struct WebPagesTests {
    let pages: WebPages

    init() throws {
        pages = try WebPages()
    }

    @Test func theSignInFormEchoesTheRequestInHiddenFieldsAndEscapesEverything() {
        let html = pages.signInForm(
            appName: "Sales <b>&", parameters: ["client_id": "sales", "state": "x\"><script>", "unknown": "dropped"], formToken: "tdf_1",
            username: "ada'", message: "Wrong <password>")
        #expect(html.hasPrefix("<!doctype html>"))
        #expect(html.contains("<h1>Sign in to Sales &lt;b&gt;&amp;</h1>"))
        #expect(html.contains(#"<input type="hidden" name="client_id" value="sales">"#))
        #expect(html.contains(#"<input type="hidden" name="state" value="x&quot;&gt;&lt;script&gt;">"#))
        #expect(!html.contains("unknown"), "only the authorization request's own parameters travel")
        #expect(html.contains(#"<input type="hidden" name="csrf_token" value="tdf_1">"#))
        #expect(html.contains(#"value="ada&#39;""#))
        #expect(html.contains(#"<p class="error" role="alert">Wrong &lt;password&gt;</p>"#))
        #expect(html.contains(#"<link rel="stylesheet" href="/assets/tandem.css">"#))
        #expect(!html.contains("<script"), "no script on the sign-in pages")
    }

    @Test func withoutAMessageTheFormShowsNoAlert() {
        let html = pages.signInForm(appName: "Sales", parameters: [:], formToken: "t")
        #expect(!html.contains("role=\"alert\""))
        #expect(html.contains("<title>Sign in · Tandem</title>"))
    }

    @Test func theContinuePageOffersBothChoices() {
        let html = pages.continuePage(appName: "Sales", username: "<ada>", parameters: ["client_id": "sales"], confirmToken: "tsc_1")
        #expect(html.contains("Continue as &lt;ada&gt;"))
        #expect(html.contains(#"<input type="hidden" name="confirm_token" value="tsc_1">"#))
        #expect(html.contains(#"<input type="hidden" name="prompt" value="login">"#))
    }

    @Test func theErrorPageSaysWhy() {
        let html = pages.signInError("The request is <malformed>.")
        #expect(html.contains("<h1>Cannot sign in</h1>"))
        #expect(html.contains("<p>The request is &lt;malformed&gt;.</p>"))
    }
}
