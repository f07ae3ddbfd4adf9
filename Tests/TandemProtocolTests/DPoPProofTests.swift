import Foundation
import Testing

@testable import TandemProtocol

/// DPoP proofs (RFC 9449) as the SDK signs and the server checks them: RFC 9449's own example
/// proof reads and verifies with its published thumbprint; a proof made here round-trips; and
/// every way a proof can be wrong is its own typed error.
@Suite("DPoP proofs")
struct DPoPProofTests {
    /// RFC 9449 Figure 2 (§4.1), signed by the key whose thumbprint Figure 9 (§6.1) publishes.
    static let rfcProof = "eyJ0eXAiOiJkcG9wK2p3dCIsImFsZyI6IkVTMjU2IiwiandrIjp7Imt0eSI6IkVDIiwieCI6Imw4dEZyaHgtMzR0VjNoUklDUkRZOXpDa0RscEJoRjQyVVFVZldWQVdCRnMiLCJ5IjoiOVZFNGpmX09rX282NHpiVFRsY3VOSmFqSG10NnY5VERWclUwQ2R2R1JEQSIsImNydiI6IlAtMjU2In19.eyJqdGkiOiItQndDM0VTYzZhY2MybFRjIiwiaHRtIjoiUE9TVCIsImh0dSI6Imh0dHBzOi8vc2VydmVyLmV4YW1wbGUuY29tL3Rva2VuIiwiaWF0IjoxNTYyMjYyNjE2fQ.2-GxA6T8lP4vfrg8v-FdWP0A0zdrj8igiMLvqRMUvwnQg4PtFLbdLXiOSsX0x7NVY-FNyJK70nfbV37xRZT3Lg"
    static let rfcThumbprint = "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I"
    static let tokenURL = URL(string: "https://tandem.example.com/oauth/token")!
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theRFCsExampleProofVerifiesWithItsPublishedThumbprint() throws {
        let proof = try DPoPProof(parsing: Self.rfcProof)
        #expect(proof.publicKey.thumbprint == Self.rfcThumbprint)
        #expect(proof.jti == "-BwC3ESc6acc2lTc")
        #expect(proof.method == "POST")
        #expect(proof.issuedAt == Date(timeIntervalSince1970: 1_562_262_616))
        try proof.check(method: "POST", url: "https://server.example.com/token", now: Date(timeIntervalSince1970: 1_562_262_620))
        #expect(throws: DPoPError.urlMismatch) {
            try proof.check(method: "POST", url: "https://server.example.com/other", now: Date(timeIntervalSince1970: 1_562_262_620))
        }
    }

    @Test func aProofMadeHereReadsBackAndChecks() throws {
        let key = SoftwareDPoPKey()
        let compact = try DPoPProof.make(
            signer: key, method: "GET", url: URL(string: "https://Tandem.example.com:443/v1/destinations?limit=3#x")!, issuedAt: Self.now,
            accessToken: "an-access-token", nonce: "n-1")
        let proof = try DPoPProof(parsing: compact)
        #expect(proof.publicKey == key.publicKey)
        #expect(proof.publicKey.thumbprint == key.publicKey.thumbprint)
        #expect(proof.url == "https://tandem.example.com/v1/destinations", "htu leaves out query, fragment and the default port")
        #expect(proof.nonce == "n-1")
        try proof.check(
            method: "GET", url: "https://tandem.example.com/v1/destinations", now: Self.now.addingTimeInterval(30),
            accessToken: "an-access-token", nonce: (current: "n-2", accepts: { $0 == "n-1" || $0 == "n-2" }))
        // ath is base64url(SHA-256(ASCII(token))), as PKCE's S256 is (checked against RFC 7636's vector).
        #expect(proof.accessTokenHash == PKCE.challenge(for: "an-access-token"))
        let other = try DPoPProof(parsing: try DPoPProof.make(signer: key, method: "GET", url: Self.tokenURL, issuedAt: Self.now))
        #expect(other.jti != proof.jti, "every proof has its own jti")
        // A key kept in secret storage signs as the same key.
        #expect(try SoftwareDPoPKey(rawRepresentation: key.rawRepresentation).publicKey.thumbprint == key.publicKey.thumbprint)
    }

    @Test func aProofIsCheckedAgainstItsRequest() throws {
        let proof = try DPoPProof(parsing: try DPoPProof.make(
            signer: SoftwareDPoPKey(), method: "POST", url: Self.tokenURL, issuedAt: Self.now, accessToken: "token-a"))
        let url = Self.tokenURL.absoluteString
        #expect(throws: DPoPError.methodMismatch) { try proof.check(method: "GET", url: url, now: Self.now) }
        #expect(throws: DPoPError.urlMismatch) { try proof.check(method: "POST", url: "https://evil.example.com/oauth/token", now: Self.now) }
        #expect(throws: DPoPError.urlMismatch) { try proof.check(method: "POST", url: "http://tandem.example.com/oauth/token", now: Self.now) }
        #expect(throws: DPoPError.issuedAtOutOfWindow) { try proof.check(method: "POST", url: url, now: Self.now.addingTimeInterval(301)) }
        #expect(throws: DPoPError.issuedAtOutOfWindow) { try proof.check(method: "POST", url: url, now: Self.now.addingTimeInterval(-61)) }
        try proof.check(method: "POST", url: url, now: Self.now.addingTimeInterval(300))
        #expect(throws: DPoPError.accessTokenHashMismatch) { try proof.check(method: "POST", url: url, now: Self.now, accessToken: "token-b") }
        #expect(throws: DPoPError.nonceRequired("fresh")) {
            try proof.check(method: "POST", url: url, now: Self.now, nonce: (current: "fresh", accepts: { _ in true }))
        }
        let withoutATH = try DPoPProof(parsing: try DPoPProof.make(signer: SoftwareDPoPKey(), method: "POST", url: Self.tokenURL, issuedAt: Self.now))
        #expect(throws: DPoPError.accessTokenHashMismatch) { try withoutATH.check(method: "POST", url: url, now: Self.now, accessToken: "token-a") }
    }

    @Test func malformedOrForgedProofsAreTypedErrors() throws {
        let key = SoftwareDPoPKey()
        let good = try DPoPProof.make(signer: key, method: "POST", url: Self.tokenURL, issuedAt: Self.now)
        let parts = good.split(separator: ".").map(String.init)
        func header(_ json: String) -> String { Base64URL.encode(Data(json.utf8)) }
        let jwk = #"{"kty":"EC","crv":"P-256","x":"\#(key.publicKey.x)","y":"\#(key.publicKey.y)"}"#
        /// A proof whose header is `json`, signed by `key` (so only the header is wrong).
        func signed(header json: String) throws -> String {
            let input = header(json) + "." + parts[1]
            return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)))
        }
        #expect(throws: DPoPError.self) { try DPoPProof(parsing: "") }
        #expect(throws: DPoPError.malformed("not three base64url parts")) { try DPoPProof(parsing: parts[0] + "." + parts[1]) }
        #expect(throws: DPoPError.malformed("longer than 4096 bytes")) { try DPoPProof(parsing: String(repeating: "A", count: 5000)) }
        #expect(throws: DPoPError.wrongType) { try DPoPProof(parsing: try signed(header: #"{"typ":"JWT","alg":"ES256","jwk":\#(jwk)}"#)) }
        #expect(throws: DPoPError.unsupportedKey) { try DPoPProof(parsing: try signed(header: #"{"typ":"dpop+jwt","alg":"HS256","jwk":\#(jwk)}"#)) }
        #expect(throws: DPoPError.unsupportedKey) { try DPoPProof(parsing: try signed(header: #"{"typ":"dpop+jwt","alg":"none","jwk":\#(jwk)}"#)) }
        #expect(throws: DPoPError.unsupportedKey) { try DPoPProof(parsing: try signed(header: #"{"typ":"dpop+jwt","alg":"ES256"}"#)) }
        let privateJWK = #"{"kty":"EC","crv":"P-256","x":"\#(key.publicKey.x)","y":"\#(key.publicKey.y)","d":"\#(Base64URL.encode(key.rawRepresentation))"}"#
        #expect(throws: DPoPError.privateKeyInHeader) { try DPoPProof(parsing: try signed(header: #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(privateJWK)}"#)) }
        // Another key in the header than the one that signed.
        let otherKey = SoftwareDPoPKey().publicKey
        let otherJWK = #"{"kty":"EC","crv":"P-256","x":"\#(otherKey.x)","y":"\#(otherKey.y)"}"#
        #expect(throws: DPoPError.badSignature) { try DPoPProof(parsing: try signed(header: #"{"typ":"dpop+jwt","alg":"ES256","jwk":\#(otherJWK)}"#)) }
        // A flipped signature byte; claims swapped under the signature.
        var signature = try #require(Base64URL.decode(parts[2]))
        signature[0] ^= 0xFF
        #expect(throws: DPoPError.badSignature) { try DPoPProof(parsing: parts[0] + "." + parts[1] + "." + Base64URL.encode(signature)) }
        let otherClaims = Base64URL.encode(Data(#"{"jti":"x","htm":"GET","htu":"https://tandem.example.com/oauth/token","iat":1800000000}"#.utf8))
        #expect(throws: DPoPError.badSignature) { try DPoPProof(parsing: parts[0] + "." + otherClaims + "." + parts[2]) }
        // Claims of the wrong shape, correctly signed.
        for claims in [#"{"htm":"POST","htu":"https://a.example/t","iat":1}"#, #"{"jti":"j","htm":"POST","htu":"https://a.example/t","iat":"1"}"#,
                       #"{"jti":"j","htm":"POST","htu":"https://a.example/t","iat":1,"ath":5}"#, "[]"] {
            let input = parts[0] + "." + Base64URL.encode(Data(claims.utf8))
            let proof = input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)))
            #expect(throws: DPoPError.self) { try DPoPProof(parsing: proof) }
        }
    }

    @Test("htu compares scheme and host without case, the default port, and never query or fragment", arguments: [
        ("https://A.example.com/token", "https://a.example.com/token"),
        ("https://a.example.com:443/token?x=1", "https://a.example.com/token"),
        ("http://a.example.com:80", "http://a.example.com/"),
        ("https://a.example.com:8443/token#f", "https://a.example.com:8443/token"),
    ])
    func normalizedURLs(url: String, expected: String) {
        #expect(DPoPProof.normalizedURL(url) == expected)
    }

    @Test func urlsThatCannotBeATargetAreRefused() {
        for url in ["ftp://a.example.com/x", "https://user:pw@a.example.com/x", "/relative", "https://"] {
            #expect(DPoPProof.normalizedURL(url) == nil, "\(url)")
        }
    }
}
