import Foundation
import Subprocess
import TandemAuth
import TandemHost
import TandemTool
import TandemVault
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Onboards the command-line host from the desktop SSO page: its QR code (decoded from a picture
/// by zbarimg) or the phone page's "Next" link. The link is checked against the server this host
/// is built for (`--server`) and its own client id; the passcode is redeemed instead of a
/// sign-in (no password), waiting while the desktop page approves; the account the server names
/// must be the one `account` expects (or the terminal's user says yes); then the rest of the
/// onboarding flow (vault, extension access, the widgets' grant, settings).
struct SSOHostOnboarding {
    let home: HostHome
    let server: URL
    let clientID: String
    let passcode: PasscodeOptions
    let cost: KeyDerivationCost
    /// The account this host may be signed in to (`--account`); `nil` asks at the terminal.
    let account: String?

    /// Runs the onboarding flow on `link`; prints the host's state as `host onboard` does.
    func onboard(_ link: URL) async throws {
        let source = ConfigurationStep.Source.ssoLink(
            link, clientID: clientID, allowedServers: try ServerAllowlist([server]), deviceLabel: Self.deviceLabel)
        let flow = HostFlow.flow(home: home, source: source, protection: .passcode(cost: cost))
        let context = HostFlow.context(home: home, presenters: FlowPresenters(passcode: OptionsPasscodePrompt(passcode), confirmation: AccountConfirmation(expected: account)))
        try await flow.run(.onboard, in: context, observer: HostFlow.progress)
        var result = HostFlow.onboarded(try context.requireConfiguration(), vault: "passcode")
        result["signed_in_with"] = "sso"
        JSONLine.print(result)
    }

    /// What the desktop page shows for this host.
    static var deviceLabel: String {
        "tandem host on \(ProcessInfo.processInfo.hostName)"
    }

    /// The text of the QR code in the picture at `path`, read by zbarimg (Debian: zbar-tools).
    ///
    /// - Throws: `CommandFailure` when zbarimg is missing or finds no QR code.
    static func decodeQRCode(at path: String) async throws -> URL {
        guard let reader = ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg", "/opt/homebrew/bin/zbarimg"]
            .first(where: FileManager.default.isExecutableFile(atPath:))
        else { throw CommandFailure("zbarimg is not installed: run scripts/ensure-deps.sh (Debian package zbar-tools)") }
        guard FileManager.default.isReadableFile(atPath: path) else { throw CommandFailure("cannot read the picture \(path)") }
        let result = try await Subprocess.run(
            .path(FilePath(reader)), arguments: ["--quiet", "--raw", "-Sdisable", "-Sqrcode.enable", path],
            output: .string(limit: 1 << 20), error: .discarded)
        let text = result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.terminationStatus.isSuccess, let first = text.split(separator: "\n").first, let url = URL(string: String(first)) else {
            throw CommandFailure("no QR code with a link in \(path)")
        }
        return url
    }
}
