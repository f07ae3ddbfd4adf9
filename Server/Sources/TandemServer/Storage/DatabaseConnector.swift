import SQLKit

/// Hands out database connections: the one seam between the shared storage code and a driver.
///
/// A connection is exclusive to the closure that holds it, so a transaction begun on it cannot
/// interleave with another caller's statements.
protocol DatabaseConnector: Sendable {
    /// The SQL dialect of the connections handed out.
    var dialect: StorageDialect { get }

    /// Runs `body` with a connection of its own and returns what it returns.
    ///
    /// - Parameter body: Work to do on the connection; the connection is returned to the pool
    ///   when it finishes or throws.
    func withConnection<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result

    /// Closes every connection. Further calls fail.
    func shutdown() async
}

extension DatabaseConnector {
    /// Runs `body` inside one write transaction: committed when it returns, rolled back when it
    /// throws (the error is rethrown unchanged).
    ///
    /// - Parameter body: The statements to run atomically.
    func withTransaction<Result: Sendable>(_ body: @Sendable (any SQLDatabase) async throws -> Result) async throws -> Result {
        let begin = dialect.beginWriteTransaction
        return try await withConnection { database in
            try await database.raw(SQLQueryString(begin)).run()
            do {
                let result = try await body(database)
                try await database.raw("COMMIT").run()
                return result
            } catch {
                try? await database.raw("ROLLBACK").run()
                throw error
            }
        }
    }
}

extension DatabaseConnector {
    /// Runs `body` on a connection, mapping driver errors to ``StorageError/queryFailed(operation:message:)``;
    /// a ``StorageError`` thrown by `body` passes through unchanged.
    ///
    /// - Parameters:
    ///   - operation: What the statements do, for the error message (never a bound value).
    ///   - body: The statements.
    func perform<Result: Sendable>(
        _ operation: String, _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws(StorageError) -> Result {
        do {
            return try await withConnection(body)
        } catch let error as StorageError {
            throw error
        } catch {
            throw .queryFailed(operation: operation, message: String(describing: error))
        }
    }

    /// Runs `body` in one transaction, mapping driver errors like ``perform(_:_:)``. A
    /// ``TransactionRollback`` thrown by `body` rolls the transaction back and its outcome is
    /// returned: an answer that undoes what the body had done so far.
    func performTransaction<Result: Sendable>(
        _ operation: String, _ body: @Sendable (any SQLDatabase) async throws -> Result
    ) async throws(StorageError) -> Result {
        do {
            return try await withTransaction(body)
        } catch let rollback as TransactionRollback<Result> {
            return rollback.outcome
        } catch let error as StorageError {
            throw error
        } catch {
            throw .queryFailed(operation: operation, message: String(describing: error))
        }
    }
}

/// Thrown inside ``DatabaseConnector/performTransaction(_:_:)``'s body to roll the transaction
/// back and answer `outcome`: a refusal found half-way (a replayed DPoP proof after the rotation
/// it would have paid for) leaves nothing of the transaction behind.
struct TransactionRollback<Outcome: Sendable>: Error {
    /// What the transaction answers instead.
    var outcome: Outcome

    /// Rolls back to answer `outcome`.
    init(_ outcome: Outcome) {
        self.outcome = outcome
    }
}
