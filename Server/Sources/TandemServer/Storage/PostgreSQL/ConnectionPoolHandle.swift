import AsyncKit

/// Carries an AsyncKit connection pool across tasks.
///
/// AsyncKit's pools are thread-safe — `EventLoopConnectionPool` hops every call onto its event
/// loop and `EventLoopGroupConnectionPool` guards its state with a lock — but the library
/// predates `Sendable` annotations, so the conformance is asserted here, in one place.
struct ConnectionPoolHandle<Pool>: @unchecked Sendable {
    /// The pool.
    let pool: Pool
}
