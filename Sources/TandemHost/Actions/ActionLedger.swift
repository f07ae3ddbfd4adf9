import Foundation
import TandemAuth
import TandemVault

/// The nonces of the action requests the host has sent, kept in its vault (never in the shared
/// container, which anyone with the App Group may write).
///
/// A nonce is recorded as *sent* before the request goes to the server and as *answered* once
/// the answer is written back and the request removed. A request whose nonce is answered is a copy put back after
/// execution: it is refused as replayed. A request whose nonce is only sent was interrupted (the
/// host was killed waiting for the answer): it is sent again with the same idempotency key, and
/// the server returns the first result instead of acting twice. Entries are dropped a day after
/// their request expired, when no copy of it could be executed anyway.
struct ActionLedger {
    /// How far a request got.
    enum Phase: String, Codable {
        case sent
        case answered
    }

    struct Entry: Codable {
        var phase: Phase
        var expiresAt: Date
    }

    /// The vault item holding the ledger.
    static let key = "tandem.actions.ledger"
    /// How long after its request's expiry an entry is kept.
    static let keptAfterExpiry: TimeInterval = 86_400

    private let item: VaultItem<[String: Entry]>

    /// The ledger in `vault`, which must be unlocked.
    init(vault: Vault) {
        item = VaultItem(vault: vault, key: Self.key, what: "the action ledger")
    }

    /// How far the request with `nonce` got, or `nil` when it was never sent.
    func phase(of nonce: String) throws(AuthError) -> Phase? {
        try item.load()?[nonce]?.phase
    }

    /// Records `nonce` at `phase`, dropping entries past their keeping time at `now`.
    func record(_ nonce: String, _ phase: Phase, expiresAt: Date, now: Date) throws(AuthError) {
        var entries = try item.load() ?? [:]
        entries = entries.filter { now.timeIntervalSince($0.value.expiresAt) < Self.keptAfterExpiry }
        entries[nonce] = Entry(phase: phase, expiresAt: expiresAt)
        try item.save(entries)
    }
}
