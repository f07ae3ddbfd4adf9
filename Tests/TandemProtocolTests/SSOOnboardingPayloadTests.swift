import Foundation
import Testing

@testable import TandemProtocol

/// The SSO link the server draws into its QR code is the one the app reads: a round trip, and a
/// typed error for every malformed link, never a crash or a half-read payload.
@Suite("SSO onboarding links")
struct SSOOnboardingPayloadTests {
    static let payload = SSOOnboardingPayload(
        server: "https://tandem.example.com", clientID: "tandem-demo", redirectURI: "tandem-demo://oauth/callback",
        passcode: "tdp_" + String(repeating: "A", count: 43), expiresAt: 1_800_000_000)

    @Test func aLinkReadsBackAsItsPayload() throws {
        let link = Self.payload.link(scheme: "tandem-demo")
        #expect(link.hasPrefix("tandem-demo://sso?config="))
        #expect(try SSOOnboardingPayload(link: try #require(URL(string: link))) == Self.payload)
        #expect(Self.payload.isExpired(at: Date(timeIntervalSince1970: 1_800_000_000)))
        #expect(!Self.payload.isExpired(at: Date(timeIntervalSince1970: 1_799_999_999)))
    }

    @Test func aUniversalLinkReadsBackAsItsPayload() throws {
        let link = Self.payload.universalLink(host: "links.example.com")
        #expect(link.hasPrefix("https://links.example.com/sso-link/tandem-demo?config="))
        #expect(try SSOOnboardingPayload(link: try #require(URL(string: link))) == Self.payload)
    }

    @Test func aUniversalLinkWhosePathNamesAnotherAppIsRefused() throws {
        let link = Self.payload.universalLink(host: "links.example.com").replacingOccurrences(of: "/sso-link/tandem-demo?", with: "/sso-link/other-app?")
        #expect {
            try SSOOnboardingPayload(link: try #require(URL(string: link)))
        } throws: { error in
            guard case .malformed = error as? SSOLinkError else { return false }
            return true
        }
    }

    @Test("https links other than /sso-link/<client id> are not SSO links", arguments: [
        "https://links.example.com/sso?config=e30",
        "https://sso?config=e30",
        "https://links.example.com/sso-link/?config=e30",
        "https://links.example.com/other/sso-link/tandem-demo?config=e30",
        "https://links.example.com/sso-link/tandem-demo?config=e30#x",
        "http://links.example.com/sso-link/tandem-demo?config=e30",
    ])
    func otherHTTPSLinksAreRefused(link: String) throws {
        let url = try #require(URL(string: link))
        #expect(throws: SSOLinkError.notAnSSOLink) { try SSOOnboardingPayload(link: url) }
    }

    @Test(arguments: [
        ("tandem-demo://onboard?config=e30", SSOLinkError.notAnSSOLink),
        ("tandem-demo://sso", .missingPayload),
        ("tandem-demo://sso?config=", .missingPayload),
        ("tandem-demo://sso?config=e30&config=e30", .missingPayload),
        ("tandem-demo://sso?config=%%%", .notBase64URL),
        ("tandem-demo://sso?config=" + String(repeating: "A", count: 3000), .tooLong),
    ])
    func malformedLinksAreTypedErrors(link: String, expected: SSOLinkError) throws {
        let url = try #require(URL(string: link) ?? URL(string: link.replacingOccurrences(of: "%%%", with: "%25%25")))
        #expect(throws: expected) { try SSOOnboardingPayload(link: url) }
    }

    @Test func payloadsThatAreNotAnSSOLinkAreRefusedWithTheReason() throws {
        for json in [#"{}"#, #"{"server":"ftp://x","client_id":"a","redirect_uri":"b","sso_passcode":"c","expires_at":1}"#,
                     #"{"server":"https://x","client_id":"","redirect_uri":"b","sso_passcode":"c","expires_at":1}"#] {
            let link = try #require(URL(string: "tandem-demo://sso?config=" + Base64URL.encode(Data(json.utf8))))
            #expect {
                try SSOOnboardingPayload(link: link)
            } throws: { error in
                guard case .malformed = error as? SSOLinkError else { return false }
                return true
            }
        }
    }
}
