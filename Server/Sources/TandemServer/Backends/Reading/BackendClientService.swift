import Logging
import ServiceLifecycle
import TandemBackends

/// Keeps the server's one ``BackendHTTPClient`` for as long as the server runs and closes its
/// connections on graceful shutdown (async-http-client wants every client shut down).
struct BackendClientService: Service {
    /// The client the routes call backends through.
    let client: BackendHTTPClient
    /// Where a failed shutdown is reported.
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        do {
            try await client.shutdown()
        } catch {
            logger.warning("closing the backend connections failed", metadata: ["error": "\(error)"])
        }
    }
}
