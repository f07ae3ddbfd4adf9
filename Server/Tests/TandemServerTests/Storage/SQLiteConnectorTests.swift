import Foundation
import SQLKit
import Testing
import TandemServerTestSupport
import TandemTestSupport

@testable import TandemServer

/// The SQLite connection is shared by every caller: transactions keep other callers' statements
/// out, and statements that share a commit are answered as if each had committed alone.
@Suite("SQLite connection sharing")
struct SQLiteConnectorTests {
    @Test("a rolled-back transaction does not take other callers' statements with it")
    func rollbackLeavesConcurrentStatementsCommitted() async throws {
        try await Self.withConnector { connector in
            try await connector.withConnection { db in
                try await db.raw("BEGIN IMMEDIATE").run()
                try await db.raw("INSERT INTO numbers (value) VALUES (\(bind: Int64(-1)))").run()
                // Others' inserts arrive while the transaction is open; they must wait it out.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        try await withThrowingTaskGroup(of: Void.self) { inserts in
                            for value in 0..<20 {
                                inserts.addTask { try await Self.insert(Int64(value), into: connector) }
                            }
                            try await inserts.waitForAll()
                        }
                    }
                    // Rolled back only once every insert waits behind the transaction.
                    try await waitUntil("the inserts queue behind the open transaction") { connector.statementsWaitingForATransaction == 20 }
                    try await db.raw("ROLLBACK").run()
                    try await group.waitForAll()
                }
            }
            let stored = try await Self.values(in: connector)
            #expect(stored == Array(0..<20))
        }
    }

    @Test("statements that share a commit each report their own outcome")
    func sharedCommitsAnswerEachStatement() async throws {
        try await Self.withConnector { connector in
            // 200 concurrent inserts of 50 distinct values: the unique constraint refuses the
            // repeats one by one, without undoing the inserts committed beside them.
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<200 {
                    group.addTask { (try? await Self.insert(Int64(index % 50), into: connector)) != nil }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 50)
            let stored = try await Self.values(in: connector)
            #expect(stored == Array(0..<50))
        }
    }

    @Test("a transaction left open by a failed caller is rolled back")
    func abandonedTransactionIsRolledBack() async throws {
        try await Self.withConnector { connector in
            await #expect(throws: StorageError.notFound("abandoned")) {
                try await connector.withConnection { db in
                    try await db.raw("BEGIN IMMEDIATE").run()
                    try await db.raw("INSERT INTO numbers (value) VALUES (\(bind: Int64(7)))").run()
                    throw StorageError.notFound("abandoned")
                }
            }
            try await Self.insert(8, into: connector)
            let stored = try await Self.values(in: connector)
            #expect(stored == [8])
        }
    }

    @Test("the write-ahead log is copied into the database file beside the writer, not in its commits")
    func checkpointsRunBesideTheWriter() async throws {
        try await Self.withConnector { connector, path in
            // The writer's own automatic checkpoint is off: only the checkpointer's connection
            // can bring these rows from the log into the database file.
            let before = try Self.fileSize(path)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for value in 0..<3_000 { group.addTask { try await Self.insert(Int64(value), into: connector) } }
                try await group.waitForAll()
            }
            try await waitUntil("the rows reach the database file") { try Self.fileSize(path) >= before + 32_768 }
            #expect(try await Self.values(in: connector) == Array(0..<3_000))
        }
    }

    // MARK: - Fixture

    /// Whether `condition` comes to hold, checked every few milliseconds for up to a minute:
    /// what these tests wait for happens on real threads (and the checkpointer on real time), so
    /// a busy machine makes it late, never wrong.
    private static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? 0
    }

    private static func withConnector(_ body: (SQLiteConnector) async throws -> Void) async throws {
        try await withConnector { connector, _ in try await body(connector) }
    }

    private static func withConnector(_ body: (SQLiteConnector, String) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        let path = directory.url.appendingPathComponent("numbers.sqlite").path
        let connector = try await SQLiteConnector(path: path, logger: LogCapture.discarding)
        do {
            try await connector.withConnection { db in
                try await db.raw("CREATE TABLE numbers (value BIGINT NOT NULL UNIQUE)").run()
            }
            try await body(connector, path)
            await connector.shutdown()
        } catch {
            await connector.shutdown()
            throw error
        }
    }

    private static func insert(_ value: Int64, into connector: SQLiteConnector) async throws {
        try await connector.withConnection { db in
            try await db.raw("INSERT INTO numbers (value) VALUES (\(bind: value))").run()
        }
    }

    private static func values(in connector: SQLiteConnector) async throws -> [Int] {
        try await connector.withConnection { db in
            try await db.raw("SELECT value FROM numbers ORDER BY value").all().map { try $0.decode(column: "value", as: Int.self) }
        }
    }
}
