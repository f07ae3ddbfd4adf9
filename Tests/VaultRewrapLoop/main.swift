// The child process of the crash-safety test: it opens the vault in HOME with passcode number N
// and rewraps the data key forever — change passcode, rotate the paired key, disable and
// enable extension access — until the test kills it with SIGKILL at a random moment.
//
// Usage: VaultRewrapLoop HOME N
// Layout (as the test's VaultFixture): HOME/host (vault file), HOME/host-secrets,
// HOME/shared/secrets. HOME/passcode-index holds the number of the passcode last known to be
// in force; HOME/current-operation names the operation under way, for the test's report.
import Foundation
import TandemVault
import TandemPlatform

func passcode(_ index: Int) -> String { "crash-passcode-\(index)" }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("VaultRewrapLoop: \(message)\n".utf8))
    exit(2)
}

let arguments = CommandLine.arguments
guard arguments.count == 3, let start = Int(arguments[2]) else { fail("usage: VaultRewrapLoop HOME N") }
let home = URL(fileURLWithPath: arguments[1])
let cost = KeyDerivationCost.fixed(log2N: 10, r: 8, p: 1)

do {
    let hostSecrets = try FileSecretStorage(directory: home.appendingPathComponent("host-secrets"))
    let sharedSecrets = try FileSecretStorage(directory: home.appendingPathComponent("shared/secrets"))
    let vault = Vault(directory: home.appendingPathComponent("host"), secrets: hostSecrets)
    try vault.unlock(passcode: passcode(start))
    FileHandle.standardOutput.write(Data("ready\n".utf8))

    var current = start
    let operationFile = home.appendingPathComponent("current-operation")
    let cycle = ["change-passcode", "rotate-paired-key", "disable-extension-access", "enable-extension-access"]
    for step in 0... {
        let operation = cycle[step % cycle.count]
        try Data(operation.utf8).write(to: operationFile)
        switch operation {
        case "change-passcode":
            try vault.changePasscode(old: passcode(current), new: passcode(current + 1), cost: cost)
            current += 1
            try Data("\(current)".utf8).write(to: home.appendingPathComponent("passcode-index"), options: .atomic)
        case "rotate-paired-key":
            // After a kill during "disable", extension access may be off: enable it again.
            if try vault.status().extensionAccessEnabled, try AuxiliaryShare.load(from: sharedSecrets) != nil {
                try vault.rotatePairedKey(shared: sharedSecrets)
            } else {
                try vault.enableExtensionAccess(shared: sharedSecrets)
            }
        case "disable-extension-access":
            try vault.disableExtensionAccess(shared: sharedSecrets)
        default:
            try vault.enableExtensionAccess(shared: sharedSecrets)
        }
    }
} catch {
    fail("\(error)")
}
