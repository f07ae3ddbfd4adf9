import Foundation
import TandemPlatform
import TandemTool
import TandemVault

/// The steps of `tandem demo vault`. Each step does the real thing through the SDK and checks
/// the outcome before saying it happened; a surprise ends the demo with an error instead.
struct VaultWalkthrough {
    /// A refresh token as a host app would keep it.
    struct Session: Codable, Equatable {
        var refreshToken: String
        var scope: String
        var issuedAt: Date
    }

    /// The signed-in user, as a widget would show it.
    struct Profile: Codable, Equatable {
        var name: String
        var email: String
        var plan: String
    }

    /// Where the demo's vault and storages live.
    let home: VaultHome

    private let passcode = "tandem-demo-1"
    private let newPasscode = "tandem-demo-2"

    /// Runs every step, printing one short paragraph per step.
    func run() throws {
        let vault = home.vault
        print("Tandem vault demo: every step runs in this process against real files in \(home.root.path)")
        print("  host/    the host app's private container: the vault file and the host's secrets")
        print("  shared/  the container extensions can read: only the auxiliary share goes there")

        step(1, "The host app creates its vault with the user's passcode (\(passcode.count) characters, not shown).")
        let created = try Stopwatch.measure { try vault.create(passcode: passcode, policy: .default, cost: .calibrated()) }
        say("scrypt was calibrated to take ≥ 100 ms on this machine; creating took \(Self.ms(created)).")

        step(2, "It stores the session: a refresh token and the user's profile.")
        let session = Session(
            refreshToken: "rt_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased(),
            scope: "openid profile orders.read", issuedAt: Date())
        let profile = Profile(name: "Ada Lovelace", email: "ada@example.com", plan: "pro")
        try vault.set(session, forKey: "session")
        try vault.set(profile, forKey: "profile")
        say("session: \(try Self.byteCount(vault, "session")) bytes of JSON, sealed under the data key;"
            + " token \(Self.redacted(session.refreshToken))")
        say("profile: \(profile.name) <\(profile.email)>, plan \(profile.plan)")

        step(3, "The app enables extension access, as an update that adds a widget would.")
        try vault.enableExtensionAccess(shared: home.sharedSecrets)
        let share = try home.auxiliaryShare()
        say("auxiliary share (\(share.serialized.count) bytes) written to shared/secrets; primary share kept in host/secrets.")
        say("Each share alone is random noise: only both together open the vault.")

        step(4, "The app goes to the background and locks the vault.")
        vault.lock()
        try expect(VaultError.locked, "reading") { _ = try vault.data(forKey: "profile") }

        step(5, "A widget asks for data; the host opens the vault with the widget's share, no passcode.")
        let requestShare = try home.auxiliaryShare()
        let pairedUnlock = try Stopwatch.measure { try vault.unlock(pairedKey: requestShare) }
        say("share read from shared/secrets; opening took \(Self.ms(pairedUnlock)) (no key derivation).")
        try checkIntact(session: session, profile: profile)
        say("the widget sees \(profile.name), plan \(profile.plan); the token stays in the host.")

        step(6, "The user changes the passcode; only the passcode's key slot is rewrapped.")
        let changed = try Stopwatch.measure { try vault.changePasscode(old: passcode, new: newPasscode) }
        say("changed in \(Self.ms(changed)) (new calibrated scrypt); locking again.")
        vault.lock()
        do {
            try vault.unlock(passcode: passcode)
            throw CommandFailure("demo failed: the old passcode still opens the vault")
        } catch VaultError.wrongPasscode(let remaining) {
            say("old passcode refused: \(VaultError.wrongPasscode(remainingAttempts: remaining))")
        }
        let unlocked = try Stopwatch.measure { try vault.unlock(passcode: newPasscode) }
        guard try vault.status().failedAttempts == 0 else {
            throw CommandFailure("demo failed: the right passcode did not reset the failed attempt count")
        }
        say("new passcode accepted in \(Self.ms(unlocked)); the failed attempt count is back to 0.")
        try checkIntact(session: session, profile: profile)
        say("session and profile read back byte for byte as stored.")
        vault.lock()
        try vault.unlock(pairedKey: requestShare)
        say("the widget's share still opens the vault: the passcode change did not touch it.")

        step(7, "A request arrives with a tampered share (one bit flipped).")
        var flipped = requestShare.bytes
        flipped[flipped.startIndex] ^= 0x01
        let tampered = try AuxiliaryShare(keyID: requestShare.keyID, bytes: flipped)
        vault.lock()
        try expect(VaultError.wrongPairedKey, "opening with it") { try vault.unlock(pairedKey: tampered) }
        print("\nDone: every step above was checked.")
    }

    // MARK: - Checks and narration

    private func checkIntact(session: Session, profile: Profile) throws {
        guard try home.vault.value(Session.self, forKey: "session") == session,
            try home.vault.value(Profile.self, forKey: "profile") == profile
        else { throw CommandFailure("demo failed: the stored items did not read back as written") }
    }

    /// Runs `body`, which must fail with exactly `expected`, and says so.
    private func expect(_ expected: VaultError, _ action: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as VaultError where error == expected {
            say("\(action) is refused: \(error)")
            return
        }
        throw CommandFailure("demo failed: \(action) succeeded; expected \"\(expected)\"")
    }

    private func step(_ number: Int, _ text: String) {
        print("\n\(number). \(text)")
    }

    private func say(_ text: String) {
        print("   \(text)")
    }

    private static func byteCount(_ vault: Vault, _ key: String) throws -> Int {
        try vault.data(forKey: key)?.count ?? 0
    }

    /// The token's kind and length, never its secret part.
    private static func redacted(_ token: String) -> String {
        "\(token.prefix(3))…(\(token.count) characters, redacted)"
    }

    private static func ms(_ duration: Duration) -> String {
        duration < .milliseconds(10) ? String(format: "%.3f ms", duration.milliseconds) : String(format: "%.0f ms", duration.milliseconds)
    }
}
