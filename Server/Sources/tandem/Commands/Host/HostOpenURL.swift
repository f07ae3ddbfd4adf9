import ArgumentParser
import Foundation
import TandemAuth
import TandemHost
import TandemProtocol
import TandemSharedContainer
import TandemTool
import TandemWidgetModel
import TandemWidgets

/// `tandem host open-url URL`: what the host app does when the system opens it with a URL. An
/// SSO link (`scheme://sso?config=…`, the phone page's "Next") onboards the host (see
/// ``SSOHostOnboarding``; it needs `--server`). Any other URL goes to the
/// `DeepLinkRouter`, which turns it into a typed route (a malformed or foreign URL is refused with
/// its typed error, exit status 1); a widget tap is recorded in the host's analytics queue
/// (`host/analytics/`), which is then flushed with the host's token unless `--no-flush`. A
/// failed flush keeps the events queued for the next one (`tandem host flush-events`).
struct HostOpenURL: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open-url", abstract: "Route a URL the app was opened with: an SSO link onboards the host; a widget tap is counted.")

    @OptionGroup var home: ExtensionOptions

    @Argument(help: "The URL, such as tandemdemo://widget/business-data?family=systemMedium&config=….")
    var url: String

    @Flag(name: .long, help: "Only queue the tap; do not send it now.")
    var noFlush = false

    @Option(name: .long, help: "For an SSO link (scheme://sso?config=…): the server this host is built for, which the link must name.")
    var server: String?

    @Option(name: .long, help: "For an SSO link: this app's client id, which the link must carry.")
    var clientID = "tandem-demo"

    @Option(name: .long, help: "For an SSO code: the account this host may be signed in to; without it, the terminal is asked.")
    var account: String?

    @OptionGroup var passcode: PasscodeOptions
    @OptionGroup var keyDerivation: KeyDerivationOptions

    func run() async throws {
        let home = try home.hostHome()
        if let link = URL(string: url), link.host == SSOOnboardingPayload.host {
            // The phone page's "Next": onboard this host with the desktop's SSO passcode.
            guard let server, let serverURL = URL(string: server) else {
                throw ValidationError("an SSO link onboards the host: give --server, the server this host is built for")
            }
            try await SSOHostOnboarding(
                home: home, server: serverURL, clientID: clientID, passcode: passcode, cost: keyDerivation.cost, account: account)
                .onboard(link)
            return
        }
        let analytics = try home.analytics()
        let tracker = WidgetTapTracker(router: DeepLinkRouter(scheme: try home.urlScheme()), analytics: analytics)
        guard let parsed = URL(string: url) else { throw CommandFailure("not a URL: \(url.debugDescription)") }
        let route: DeepLinkRoute
        do {
            route = try await tracker.open(parsed)
        } catch {
            JSONLine.print(["result": "refused", "error": "\(error)"])
            throw ExitCode.failure
        }
        var output: [String: Any] = ["result": "routed", "route": Self.describe(route)]
        if !noFlush, case .widgetTap = route {
            do {
                output["sent"] = try await HostFlushEvents.flush(analytics, home: home)
            } catch {
                output["flushError"] = "\(error)"
            }
        }
        output["queued"] = await analytics.pendingEvents().count
        JSONLine.print(output)
    }

    static func describe(_ route: DeepLinkRoute) -> [String: Any] {
        switch route {
        case .widgetTap(let kind, let family, let configuration, let target, _):
            ["kind": "widgetTap", "widget": kind, "family": family.rawValue,
             "configuration": String(decoding: configuration.json, as: UTF8.self), "target": target ?? NSNull()]
        case .ssoOnboarding: ["kind": "ssoOnboarding"]
        case .signInCallback: ["kind": "signInCallback"]
        }
    }
}
