import ArgumentParser
import Foundation
import TandemAuth
import TandemBridge
import TandemTool
import TandemVault

/// `tandem host unlock`: the host coming to the foreground. The user's passcode opens the vault;
/// the host makes sure its own tokens still work and, when its widgets were told to ask for a new
/// sign-in (their grant died) or hold no grant, issues them a fresh one. When the user's own
/// grant is gone, it publishes `signedOut`: only an interactive sign-in helps then.
struct HostUnlock: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unlock", abstract: "Open the vault with the passcode, check the session, re-issue the widgets' grant if needed.")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var passcode: PasscodeOptions

    func run() async throws {
        let home = try home.home()
        let client = AppClient.tool(try home.clientConfiguration(), role: "host")
        try home.vaultHome.unlockAsOwner(passcode: passcode)
        defer { home.vault.lock() }

        let coordinator = try RefreshCoordinator.host(vault: home.vault, oauth: client.oauth)
        guard try await Self.accessToken(from: coordinator) != nil else { return try Self.signedOut(home) }

        let grants = try SharedGrantStore(container: home.container, share: home.vaultHome.auxiliaryShare())
        let needsGrant = try home.container.status()?.state != .ready || grants.load() == nil
        if needsGrant {
            // The widgets' grant died or went missing; the host's own may have ended with it (a
            // revoked family) while its access token still looks valid. A refresh tells.
            guard let fresh = try await Self.refreshed(coordinator) else { return try Self.signedOut(home) }
            try grants.save(try await client.oauth.exchangeForExtensionGrant(accessToken: fresh))
            try home.container.setStatus(SessionStatus(state: .ready, reason: "extension grant re-issued"))
        }
        JSONLine.print(["session": "ready", "extension_grant": needsGrant ? "reissued" : "kept"])
    }

    /// A valid access token of the host's own grant, or `nil` when that grant is gone.
    private static func accessToken(from coordinator: RefreshCoordinator) async throws(AuthError) -> String? {
        do {
            return try await coordinator.validAccessToken(minimumValidity: 60)
        } catch {
            guard error == .reauthenticationRequired else { throw error }
            return nil
        }
    }

    /// A newly refreshed access token of the host's own grant, or `nil` when that grant is gone.
    private static func refreshed(_ coordinator: RefreshCoordinator) async throws(AuthError) -> String? {
        do {
            return try await coordinator.refresh(replacing: nil).accessToken
        } catch {
            guard error == .reauthenticationRequired else { throw error }
            return nil
        }
    }

    /// Publishes that only a new sign-in helps now.
    private static func signedOut(_ home: ExtensionHome) throws {
        try home.container.setStatus(SessionStatus(state: .signedOut, reason: "the user's grant ended; sign in again"))
        JSONLine.print(["session": "signedOut", "extension_grant": "unchanged"])
    }
}
