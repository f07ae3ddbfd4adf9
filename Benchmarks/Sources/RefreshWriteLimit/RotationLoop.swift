import Foundation
import GRDB

/// Redeems refresh tokens in a loop on a copy of a seeded server database, with nothing but the
/// rotation statement between one redemption and the next: the rate the database alone allows.
///
/// The copy is opened as the server's SQLite connector opens its file (write-ahead log,
/// `synchronous = NORMAL` as GRDB sets it with the log, a busy timeout, foreign keys, no
/// automatic checkpoints) and a second connection runs passive checkpoints every 200 ms beside
/// the writer, as the server's checkpointer does. Statements are cached prepared statements and
/// their rows are read whole, as the server reads them.
struct RotationLoop {
    /// How rotations are committed.
    enum Commit: CustomStringConvertible {
        /// Each statement its own transaction: an idle server's commits.
        case each
        /// Up to this many statements inside one `BEGIN IMMEDIATE … COMMIT`: what the server's
        /// connection does with statements that queue up under load, at its largest.
        case shared(Int)

        var description: String {
            switch self {
            case .each: "one commit per rotation"
            case .shared(let count): "shared commits of \(count)"
            }
        }
    }

    /// What one run did.
    struct Outcome {
        /// Rotations timed (after the untimed warm-up).
        var rotations: Int
        /// How long they took.
        var seconds: Double
        var perSecond: Double { Double(rotations) / seconds }
    }

    let statement: RotationStatement
    let clientID: String

    /// Rotations run before the clock starts (the statement is compiled and cached on the first).
    static let warmUpRotations = 256

    /// Copies `seeded` beside itself, rotates its tokens for `duration` committing as `commit`
    /// says, checks that every rotation won and inserted its successor, and removes the copy.
    func run(seeded: URL, commit: Commit, duration: Duration) async throws -> Outcome {
        let path = seeded.path + ".limit-\(ProcessInfo.processInfo.processIdentifier).sqlite"
        removeDatabaseFiles(path)
        defer { removeDatabaseFiles(path) }

        let database = try DatabaseQueue(path: path, configuration: Self.serverConfiguration())
        let source = try DatabaseQueue(path: seeded.path, configuration: Self.readOnly())
        try source.backup(to: database)
        try source.close()

        let checkpointer = Self.startCheckpointer(path: path)
        defer { checkpointer.cancel() }

        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let values = try RotationValues(binds: statement.binds, clientID: clientID, now: now)
        let sql = statement.sql
        let outcome = try await database.writeWithoutTransaction { db -> Outcome in
            var presented = try Self.unrotatedTokens(of: clientID, now: now, in: db)
            guard presented.count >= Self.warmUpRotations else {
                throw RefreshWriteLimitFailure("the seeded database has \(presented.count) unrotated bearer tokens of \(clientID); at least \(Self.warmUpRotations) are needed")
            }
            let rowsBefore = try Int.fetchOne(db, sql: "SELECT count(*) FROM refresh_tokens") ?? 0
            var successors = SuccessorHashes()
            var next = 0
            var rotated = 0
            let rotation = try db.cachedStatement(sql: sql)

            // One rotation, as the server runs it: the statement's rows read whole. A redeemed
            // token's successor joins the queue, so the loop never runs out of tokens.
            func rotate() throws {
                let successor = successors.next()
                let arguments = values.arguments(presentedHash: presented[next], successorHash: successor)
                next += 1
                let cursor = try Row.fetchCursor(rotation, arguments: arguments)
                var rows: [[DatabaseValue]] = []
                while let row = try cursor.next() { rows.append(Array(row.databaseValues)) }
                guard rows.count == 1 else {
                    throw RefreshWriteLimitFailure("a seeded token's rotation matched \(rows.count) rows, not one: the statement or the seed is not what this program expects")
                }
                presented.append(successor)
                rotated += 1
            }
            func batch(_ count: Int) throws {
                switch commit {
                case .each:
                    for _ in 0..<count { try rotate() }
                case .shared(let size):
                    var left = count
                    while left > 0 {
                        try db.cachedStatement(sql: "BEGIN IMMEDIATE").execute()
                        for _ in 0..<min(size, left) { try rotate() }
                        try db.cachedStatement(sql: "COMMIT").execute()
                        left -= min(size, left)
                    }
                }
            }

            try batch(Self.warmUpRotations)
            let clock = ContinuousClock()
            let start = clock.now
            let end = start.advanced(by: duration)
            let step: Int
            if case .shared(let size) = commit { step = size } else { step = 64 }
            var timed = 0
            while clock.now < end {
                try batch(step)
                timed += step
            }
            let elapsed = start.duration(to: clock.now)

            // Every rotation inserted its successor through the trigger.
            let rowsAfter = try Int.fetchOne(db, sql: "SELECT count(*) FROM refresh_tokens") ?? 0
            guard rowsAfter == rowsBefore + rotated else {
                throw RefreshWriteLimitFailure("\(rotated) rotations added \(rowsAfter - rowsBefore) rows to refresh_tokens: the successor trigger did not run")
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            return Outcome(rotations: timed, seconds: seconds)
        }
        try database.close()
        return outcome
    }

    // MARK: - The server's settings

    /// The configuration of the server's SQLite connector (`SQLiteConnector.init(path:logger:)`).
    static func serverConfiguration() -> Configuration {
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.foreignKeysEnabled = true
        configuration.allowsUnsafeTransactions = true
        configuration.label = "refresh-write-limit"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        return configuration
    }

    private static func readOnly() -> Configuration {
        var configuration = Configuration()
        configuration.readonly = true
        return configuration
    }

    /// Passive checkpoints every 200 ms from a second connection (the server's `SQLiteCheckpointer`).
    private static func startCheckpointer(path: String) -> Task<Void, Never> {
        Task.detached(priority: .utility) {
            var configuration = Configuration()
            configuration.busyMode = .timeout(1)
            guard let queue = try? DatabaseQueue(path: path, configuration: configuration) else { return }
            while !Task.isCancelled {
                do {
                    try await Task.sleep(for: .milliseconds(200))
                    try await queue.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
                } catch {
                    break
                }
            }
            try? queue.close()
        }
    }

    /// The hashes of the client's unredeemed, unexpired tokens of bearer grants, in seeding order.
    private static func unrotatedTokens(of clientID: String, now: Int64, in db: Database) throws -> [String] {
        let bound = try db.columns(in: "token_families").contains { $0.name == "dpop_jkt" } ? "AND f.dpop_jkt IS NULL" : ""
        return try String.fetchAll(db, sql: """
            SELECT r.token_hash FROM refresh_tokens r JOIN token_families f ON f.id = r.family_id
            WHERE r.rotated_at IS NULL AND r.expires_at > ? AND f.client_id = ? AND f.revoked_at IS NULL \(bound)
            ORDER BY r.rowid
            """, arguments: [now, clientID])
    }

    private func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

/// Fresh successor hashes: 64 lowercase hex digits spread like SHA-256 output (so they land all
/// over the token index, as the server's do), without hashing anything.
private struct SuccessorHashes {
    private var state = UInt64.random(in: .min ... .max)

    mutating func next() -> String {
        var characters = [UInt8](repeating: 0, count: 64)
        let digits = Array("0123456789abcdef".utf8)
        for word in 0..<4 {
            let value = mix()
            for nibble in 0..<16 { characters[word * 16 + nibble] = digits[Int((value >> (nibble * 4)) & 0xF)] }
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// SplitMix64.
    private mutating func mix() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
