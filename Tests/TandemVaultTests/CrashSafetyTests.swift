import Foundation
import Subprocess
import TandemPlatform
import Testing

@testable import TandemVault

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(System)
import System
#else
import SystemPackage
#endif

/// Kills a real process that rewraps the vault in a loop (change passcode, rotate the paired
/// key, disable and enable extension access), at random moments, and checks after every kill
/// that the vault opens with the old or the new passcode and with the share the extensions
/// hold, and that every item reads back intact.
@Suite("Crash safety with real processes")
struct CrashSafetyTests {
    static let kills = 150
    /// Kills after which the extensions' share must have been checked: the rounds go on (up to
    /// ``maximumKills``) until it has, because how many kills land while the share is present
    /// depends on the machine's speed (a kill during "disable" leaves none), not on the vault.
    static let minimumShareChecks = 75
    static let maximumKills = 450

    @Test func sigkillDuringRewrapsNeverLosesTheVault() async throws {
        let home = try VaultFixture()
        let child = try Self.childExecutable()
        var expected: [String: Data] = [:]
        do {
            let vault = home.vault()
            try vault.create(
                passcode: "crash-passcode-0", policy: PasscodePolicy(maximumAttempts: 1000, attemptsBeforeDelay: 1000),
                cost: VaultFixture.fastCost)
            for index in 0..<25 {
                let value = Data.random(count: 1024)
                expected["item-\(index)"] = value
                try vault.set(value, forKey: "item-\(index)")
            }
            try vault.enableExtensionAccess(shared: home.sharedSecrets)
        }
        let indexFile = home.root.appendingPathComponent("passcode-index")
        try Data("0".utf8).write(to: indexFile)

        var generator = SystemRandomNumberGenerator()
        var killsByOperation: [String: Int] = [:]
        var passcodeChangesSurvived = 0
        var sharesChecked = 0
        var round = 0
        while round < Self.kills || (sharesChecked < Self.minimumShareChecks && round < Self.maximumKills) {
            round += 1
            let recorded = Int(try String(contentsOf: indexFile, encoding: .utf8)) ?? -1
            let delay = Duration.microseconds(Int.random(in: 0...300_000, using: &generator))
            let run = try await Subprocess.run(
                .path(FilePath(child.path)), arguments: [home.root.path, "\(recorded)"], input: .none, output: .sequence,
                error: .discarded
            ) { execution in
                var lines = execution.standardOutput.strings().makeAsyncIterator()
                let ready = try await lines.next() ?? ""
                // Each rewrap takes tens of milliseconds (fsyncs): a window of a few cycles spreads
                // the kills over all three operations and every step inside them. The delay only
                // picks the kill's moment: every moment must leave an intact vault, so no check
                // depends on how far the child got, and a busy machine only moves the kills.
                if ready.hasPrefix("ready") {
                    try await Task.sleep(for: delay)
                    try execution.send(signal: .kill)
                }
                return ready
            }
            try #require(run.closureResult.hasPrefix("ready"), "child did not start in round \(round): \(run.closureResult)")
            #expect(run.terminationStatus == .signaled(SIGKILL), "child exited by itself in round \(round)")
            let operation = (try? String(contentsOf: home.root.appendingPathComponent("current-operation"), encoding: .utf8)) ?? ""
            killsByOperation[operation.isEmpty ? "between operations" : operation, default: 0] += 1

            // A freshly started host: the old or the new passcode opens the vault…
            let index = Int(try String(contentsOf: indexFile, encoding: .utf8)) ?? -1
            let vault = home.vault()
            let opened = [index + 1, index].first { candidate in
                (try? vault.unlock(passcode: "crash-passcode-\(candidate)")) != nil
            }
            let working = try #require(opened, "neither passcode \(index) nor \(index + 1) opens the vault after kill \(round)")
            if working != index { passcodeChangesSurvived += 1 }
            for (key, value) in expected { #expect(try vault.data(forKey: key) == value, "item \(key) after kill \(round)") }
            vault.lock()

            // …and so does the share the extensions hold right now, if any (a kill during
            // "disable" may have removed it: then the extensions hold nothing that fails).
            if let share = try AuxiliaryShare.load(from: home.sharedSecrets) {
                sharesChecked += 1
                try vault.unlock(pairedKey: share)
                for (key, value) in expected { #expect(try vault.data(forKey: key) == value, "item \(key) via paired key after kill \(round)") }
                vault.lock()
            }
            try Data("\(working)".utf8).write(to: indexFile, options: .atomic)
        }
        let summary = killsByOperation.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        print("crash safety: \(round) SIGKILLs (\(summary)); \(passcodeChangesSurvived) found the new passcode committed but not yet recorded; the extensions' share opened the vault after \(sharesChecked)")
        #expect(sharesChecked >= Self.minimumShareChecks, "\(round) kills")
    }

    /// The child is built beside the test bundle: the test target depends on it.
    static func childExecutable() throws -> URL {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            Bundle.main.bundleURL,
        ]
        for directory in candidates {
            let url = directory.appendingPathComponent("VaultRewrapLoop")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw VaultError.storage("VaultRewrapLoop not found beside \(CommandLine.arguments[0]); build the tests with `swift build --build-tests` or `--product TandemPackageTests`")
    }
}
