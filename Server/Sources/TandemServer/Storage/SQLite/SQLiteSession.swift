import GRDB
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import Synchronization

/// SQLKit's view of a ``SQLiteConnector``'s connection for one ``SQLiteConnector/withConnection(_:)``
/// body: each query is serialized in SQLite's dialect and run as a cached prepared statement.
final class SQLiteSession: SQLDatabase {
    /// The shared connection.
    let connection: SQLiteSerialConnection
    /// This session's id on the connection.
    let id: UInt64
    /// Where SQLKit reports problems.
    let logger: Logger
    /// Whether the last statement left a transaction open, so ``end()`` knows to roll it back.
    private let transactionOpen = Atomic<Bool>(false)

    /// A session on `connection`.
    init(connection: SQLiteSerialConnection, id: UInt64, logger: Logger) {
        self.connection = connection
        self.id = id
        self.logger = logger
    }

    /// An event loop for SQLKit's future-based API (the work itself runs on the connection's queue).
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }

    /// SQLite's SQL dialect, as SQLiteKit spells it.
    var dialect: any SQLDialect { SQLiteDialect() }

    /// Queries are not logged (they would carry no secrets, but they are the hot path).
    var queryLogLevel: Logger.Level? { nil }

    /// Runs `query`, calling `onRow` for each result row once the statement has finished.
    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) async throws {
        let (sql, binds) = serialize(query)
        let arguments = StatementArguments(try binds.map(SQLiteBindValue.databaseValue))
        let mayShareCommit = !transactionOpen.load(ordering: .relaxed) && Self.mayShareCommit(sql)
        let (rows, open) = try await connection.run(session: id, mayShareCommit: mayShareCommit) { db in
            // Parameterised statements repeat with new values; the rest (schema changes) run once.
            let statement = arguments.isEmpty ? try db.makeStatement(sql: sql) : try db.cachedStatement(sql: sql)
            let cursor = try Row.fetchCursor(statement, arguments: arguments)
            let columns = statement.columnNames
            var rows: [SQLiteResultRow] = []
            while let row = try cursor.next() {
                rows.append(SQLiteResultRow(columns: columns, values: Array(row.databaseValues)))
            }
            return rows
        }
        transactionOpen.store(open, ordering: .relaxed)
        for row in rows { onRow(row) }
    }

    /// The same, for SQLKit's future-based API.
    func execute(sql query: any SQLKit.SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> ()) -> EventLoopFuture<Void> {
        let promise = eventLoop.makePromise(of: Void.self)
        promise.completeWithTask { try await self.execute(sql: query, onRow) }
        return promise.futureResult
    }

    /// Runs `closure` on this same session.
    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }

    /// Rolls back a transaction the session left open (a body that threw before its `ROLLBACK`).
    func end() async {
        guard transactionOpen.load(ordering: .relaxed) else { return }
        _ = try? await connection.run(session: id, mayShareCommit: false) { db in
            if db.isInsideTransaction { try db.execute(sql: "ROLLBACK") }
        }
        transactionOpen.store(false, ordering: .relaxed)
    }

    /// Whether `sql` is a plain statement that may share a commit with others' statements: not
    /// one that starts or ends a transaction, nor one SQLite refuses inside a transaction
    /// (`PRAGMA journal_mode`, `VACUUM`).
    static func mayShareCommit(_ sql: String) -> Bool {
        let keyword = sql.utf8.drop(while: { $0 == 0x20 || $0 == 0x0A || $0 == 0x09 || $0 == 0x0D }).prefix(7)
        let upper = String(decoding: keyword.map { $0 & 0xDF }, as: UTF8.self)
        return ["SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "REPLACE"].contains { upper.hasPrefix($0) }
    }
}
