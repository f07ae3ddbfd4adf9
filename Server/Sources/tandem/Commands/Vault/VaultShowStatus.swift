import ArgumentParser
import Foundation
import TandemProtocol
import TandemTool
import TandemVault

/// `tandem vault status [--json]`: what the vault looks like from outside, without a passcode.
struct VaultShowStatus: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show the vault's state (readable while it is locked).")

    @OptionGroup var vault: VaultOptions

    @Flag(name: .long, help: "Print the status as JSON (dates in ISO 8601).")
    var json = false

    func run() throws {
        let home = try vault.home()
        let status = try home.vault.status()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = ISO8601Time.encodingStrategy(fractionalSeconds: false)
            print(String(decoding: try encoder.encode(status), as: UTF8.self))
        } else {
            print(Self.describe(status, home: home))
        }
    }

    /// The human-readable form: one fact per line.
    static func describe(_ status: VaultStatus, home: VaultHome) -> String {
        var lines = ["vault \(home.vault.name) in \(home.hostDirectory.path)"]
        guard status.exists else { return (lines + ["  exists:            no"]).joined(separator: "\n") }
        lines.append("  exists:            yes")
        lines.append("  protection:        \(status.protection == .deviceOnly ? "device secret only (no passcode)" : "passcode")")
        lines.append("  extension access:  \(status.extensionAccessEnabled ? "enabled" : "disabled")")
        if status.protection == .passcode {
            let remaining = status.remainingAttempts.map { " (\($0) attempts remaining)" } ?? ""
            lines.append("  failed attempts:   \(status.failedAttempts)\(remaining)")
            let next = status.nextAttemptAllowedAt.map { ISO8601Time.string(from: $0, fractionalSeconds: false) } ?? "now"
            lines.append("  next attempt:      \(next)")
        }
        return lines.joined(separator: "\n")
    }
}
