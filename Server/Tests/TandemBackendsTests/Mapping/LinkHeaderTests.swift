import Testing

@testable import TandemBackends

/// RFC 8288 `Link` headers: the `rel="next"` target.
@Suite("Link header")
struct LinkHeaderTests {
    @Test func githubsHeaderGivesItsNextPage() {
        let header = #"<https://api.github.com/repositories/515435940/issues?per_page=3&page=2>; rel="next", <https://api.github.com/repositories/515435940/issues?per_page=3&page=5>; rel="last""#
        #expect(LinkHeader.nextTarget(in: [header]) == "https://api.github.com/repositories/515435940/issues?per_page=3&page=2")
    }

    @Test func relationsAreTokensMatchedWithoutCase() {
        #expect(LinkHeader.nextTarget(in: [#"<https://a/1>; rel="prev", <https://a/3>; rel="NEXT last""#]) == "https://a/3")
        #expect(LinkHeader.nextTarget(in: ["<https://a/3>;rel=next"]) == "https://a/3")
        #expect(LinkHeader.nextTarget(in: [#"<https://a/3>; rel="nextish""#]) == nil)
        #expect(LinkHeader.nextTarget(in: [#"<https://a/3>; title="next"; rel="prev""#]) == nil)
        #expect(LinkHeader.nextTarget(in: [#"<https://a/1>; rel="last""#, #"<https://a/2>; rel="next""#]) == "https://a/2")
    }

    @Test func commasAndSemicolonsInsideTargetsAndQuotesAreKept() {
        let header = #"<https://a/?ids=1,2;x>; title="a, b; c"; rel="next", <https://a/last>; rel="last""#
        #expect(LinkHeader.nextTarget(in: [header]) == "https://a/?ids=1,2;x")
        #expect(LinkHeader.nextTarget(in: [#"<https://a/?q=\">; title="say \"hi\", ok"; rel="next""#]) == ##"https://a/?q=\""##)
    }

    @Test func relativeTargetsStayRelative() {
        #expect(LinkHeader.nextTarget(in: [#"</items?page=2>; rel="next""#]) == "/items?page=2")
    }

    @Test func malformedLinksAreSkipped() {
        #expect(LinkHeader.nextTarget(in: [#"https://a/2; rel="next""#]) == nil)
        #expect(LinkHeader.nextTarget(in: [#"<https://a/2; rel="next""#]) == nil)
        #expect(LinkHeader.nextTarget(in: [#"<https://a/1>; rel="next" junk, <https://a/2>; rel="next""#]) == "https://a/2")
        #expect(LinkHeader.nextTarget(in: [#"<https://a/1>; rel="unterminated, <https://a/2>; rel=next"#]) == nil)
        #expect(LinkHeader.nextTarget(in: ["", " , ,", "<>"]) == nil)
    }
}
