import ArgumentParser
import Foundation
import TandemTool

/// `tandem demo vault`: a narrated walkthrough of the vault, in-process, on real files.
struct DemoVault: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vault",
        abstract: "Walk through the vault: passcode, extension access through the paired key, passcode change.",
        discussion: "Every step checks what it claims; secrets are never printed.")

    @Option(name: .long, help: "Keep the demo vault in this (empty) directory instead of a temporary one.")
    var dir: String?

    func run() throws {
        let root = dir.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("tandem-demo-\(UUID().uuidString)", isDirectory: true)
        defer { if dir == nil { try? FileManager.default.removeItem(at: root) } }
        let home = try VaultHome(root: root)
        if try home.vault.status().exists {
            throw CommandFailure(
                "\(root.path) already holds a vault: pick another --dir or run `tandem vault destroy --dir \(root.path) --yes`")
        }
        try VaultWalkthrough(home: home).run()
        if let dir {
            print("""

                The vault stays in \(dir). Try, in another process:
                  tandem vault status --dir \(dir)
                  tandem vault get-paired profile --dir \(dir)
                """)
        } else {
            print("\nThe temporary directory has been removed.")
        }
    }
}
