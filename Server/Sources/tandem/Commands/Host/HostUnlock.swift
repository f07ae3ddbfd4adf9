import ArgumentParser
import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import TandemTool
import TandemVault

/// `tandem host unlock`: the host coming to the foreground, as the restoring flow (``HostFlow``).
/// The user's passcode opens the vault; the host makes sure its own tokens still work and, when
/// its widgets were told to ask for a new sign-in (their grant died) or hold no grant, issues them
/// a fresh one. When the user's own grant is gone it publishes `signedOut`; given `--username`
/// (and the password as for `host onboard`) it signs the user in again and re-arms the widgets.
struct HostUnlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Open the vault with the passcode, check the session, re-issue the widgets' grant if needed.")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var passcode: PasscodeOptions

    @Option(name: .long, help: "Sign in again as this user if the session has ended (else the host reports signedOut).")
    var username: String?

    @Option(name: .long, help: "A file whose first line is the user's password (else $TANDEM_PASSWORD, else standard input).")
    var passwordFile: String?

    @Option(name: .long, help: "For an API-key app whose key was revoked: a file whose first line is the new key.")
    var apiKeyFile: String?

    func run() async throws {
        let home = try home.hostHome()
        _ = try home.clientConfiguration()
        var presenters = FlowPresenters(passcode: OptionsPasscodePrompt(passcode), apiKey: apiKeyFile.map { DeferredAPIKey(file: $0) })
        if let username {
            presenters.signIn = DeferredSignIn(username: username, passwordFile: passwordFile)
        }
        let context = HostFlow.context(home: home, presenters: presenters)
        do {
            try await HostFlow.flow(home: home).run(.restore, in: context, observer: HostFlow.progress)
        } catch {
            guard Self.sessionEnded(error) else { throw error }
            // The session ended and this host has no way to sign in: the extensions were told.
            JSONLine.print(["session": "signedOut", "extension_grant": "unchanged"])
            return
        }
        let grant = context.widgetsRearmed ? "reissued" : "kept"
        let signedInAgain: Bool = context.signedInThisRun
        JSONLine.print(["session": "ready", "extension_grant": grant, "signed_in_again": signedInAgain])
    }

    /// Whether the restore stopped because the user's session ended and nobody could sign in.
    private static func sessionEnded(_ error: FlowError) -> Bool {
        guard case .stepFailed(let step, _, let underlying) = error, step == "authentication",
            let authError = underlying as? AuthError
        else { return false }
        return authError == .reauthenticationRequired
    }
}
