import TandemProtocol
import Testing

@Suite("PKCE (RFC 7636)")
struct PKCETests {
    static let appendixBVerifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let appendixBChallenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    @Test func challengeMatchesRFC7636AppendixB() {
        #expect(PKCE.challenge(for: Self.appendixBVerifier) == Self.appendixBChallenge)
        #expect(PKCE.method == "S256")
    }

    @Test func verifiersAre43To128UnreservedCharacters() {
        #expect(PKCE.isValidVerifier(String(repeating: "a", count: 43)))
        #expect(PKCE.isValidVerifier(String(repeating: "-._~", count: 32)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42)))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 129)))
        #expect(!PKCE.isValidVerifier("too-short"))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42) + "/"))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42) + "+"))
        #expect(!PKCE.isValidVerifier(String(repeating: "a", count: 42) + "é"))
    }

    @Test func challengesAre43Base64URLCharacters() {
        #expect(PKCE.isValidChallenge(Self.appendixBChallenge))
        #expect(!PKCE.isValidChallenge(String(Self.appendixBChallenge.dropLast())))
        #expect(!PKCE.isValidChallenge(Self.appendixBChallenge + "A"))
        #expect(!PKCE.isValidChallenge(String(repeating: "~", count: 43)))
        #expect(!PKCE.isValidChallenge(String(repeating: "+", count: 43)))
    }

    @Test func aVerifierMatchesOnlyItsOwnChallenge() {
        #expect(PKCE.verify(Self.appendixBVerifier, matches: Self.appendixBChallenge))
        #expect(!PKCE.verify(String(repeating: "a", count: 43), matches: Self.appendixBChallenge))
        #expect(!PKCE.verify("too-short", matches: PKCE.challenge(for: "too-short")))
    }
}
