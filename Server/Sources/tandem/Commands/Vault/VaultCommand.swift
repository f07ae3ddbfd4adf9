import ArgumentParser

/// `tandem vault …`: administers a vault in a directory, playing the host app (passcode) and
/// an extension request (`get-paired`, with the auxiliary share only).
///
/// Each command runs in its own process, so the vault is opened and locked again every time:
/// `unlock` only checks the passcode.
struct VaultCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Create, open and administer a Tandem vault in a directory.",
        discussion: """
            Passcodes come from --passcode / --new-passcode, else $TANDEM_PASSCODE / \
            $TANDEM_NEW_PASSCODE, else one line each of standard input (current passcode first).
            """,
        subcommands: [
            VaultCreate.self, VaultUnlock.self, VaultPut.self, VaultGet.self, VaultGetPaired.self,
            VaultChangePasscode.self, VaultEnableExtensionAccess.self, VaultRotatePairedKey.self,
            VaultDisableExtensionAccess.self, VaultShowStatus.self, VaultDestroy.self,
        ]
    )
}
