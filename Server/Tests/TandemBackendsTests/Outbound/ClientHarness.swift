import Logging
import TandemBackends

/// A policy for calls to the test servers on the loopback: loopback allowed, a small body cap,
/// and time limits long enough for a machine busy with every other suite (`make test` runs
/// beside four busy loops); the tests of the limits themselves pass short ones.
func loopbackPolicy(
    maximumResponseBytes: Int = 64 * 1024, requestTimeout: Duration = .seconds(60),
    connectTimeout: Duration = .seconds(60)
) -> OutboundPolicy {
    OutboundPolicy(
        allowsLoopback: true, maximumResponseBytes: maximumResponseBytes, connectTimeout: connectTimeout,
        requestTimeout: requestTimeout)
}

/// A logger that drops everything.
let quietLogger = Logger(label: "test.outbound") { _ in SwiftLogNoOpLogHandler() }

/// Runs `body` with a new client and shuts the client down afterwards, whatever happens.
func withClient<Result>(
    _ policy: OutboundPolicy = loopbackPolicy(),
    resolver: any HostResolving = TableResolver([:]),
    logger: Logger = quietLogger,
    now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now },
    _ body: (BackendHTTPClient) async throws -> Result
) async throws -> Result {
    let client = try BackendHTTPClient(policy: policy, logger: logger, resolver: resolver, now: now)
    do {
        let result = try await body(client)
        try await client.shutdown()
        return result
    } catch {
        try await client.shutdown()
        throw error
    }
}

/// The error `operation` threw, or `nil` when it returned.
func outboundError<Value>(_ operation: () async throws(OutboundCallError) -> Value) async -> OutboundCallError? {
    do {
        _ = try await operation()
        return nil
    } catch {
        return error
    }
}
