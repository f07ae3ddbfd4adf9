import Foundation
import TandemAuth
import TandemProtocol

/// SSO onboarding links and QR payloads (`Sources/TandemProtocol/SSO/`, checked by
/// `Sources/TandemAuth/SSO/SSOOnboardingLink.swift`): the text of a scanned QR code or an
/// opened link, which anyone can print or send.
///
/// Invariants: a payload that parses is written as a link again and parses to itself; a link
/// the app accepts names the app's own client, a server on the allowlist, and has not expired.
enum SSOLinkTarget {
    static let clientID = "demo-app"
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let allowed = try? ServerAllowlist([URL(string: "https://tandem.example")].compactMap { $0 })

    static let target = FuzzTarget(
        name: "sso-link",
        summary: "an SSO link or QR text parsed with SSOOnboardingPayload(link:) and SSOOnboardingLink; what parses is written and parses again",
        seeds: {
            [
                SSOOnboardingPayload(
                    server: "https://tandem.example", clientID: clientID, redirectURI: "tandemdemo://oauth/callback",
                    passcode: "K7Q2-M9XD", expiresAt: 1_800_000_600),
                SSOOnboardingPayload(
                    server: "http://127.0.0.1:8080/", clientID: "other-app", redirectURI: "https://app.example/callback",
                    passcode: "2222-3333", expiresAt: 1_700_000_000),
            ].map { Data($0.link(scheme: "tandemdemo").utf8) }
        },
        run: run
    )

    static func run(_ input: Data) {
        guard let text = String(validating: input, as: UTF8.self), let url = URL(string: text) else { return }
        if let payload = try? SSOOnboardingPayload(link: url) {
            let again = URL(string: payload.link(scheme: "tandemdemo")).flatMap { try? SSOOnboardingPayload(link: $0) }
            Invariant.expect(again == payload, "\(text) parses to \(payload), but its own link parses to \(String(describing: again))")
        }
        guard let allowed, let link = try? SSOOnboardingLink(url: url, clientID: clientID, allowedServers: allowed, now: now)
        else { return }
        Invariant.expect(link.payload.clientID == clientID, "a link for client \(link.payload.clientID) was accepted")
        Invariant.expect(allowed.permits(link.serverURL), "a link to \(link.serverURL) off the allowlist was accepted")
        Invariant.expect(!link.payload.isExpired(at: now), "an expired link was accepted")
    }
}
