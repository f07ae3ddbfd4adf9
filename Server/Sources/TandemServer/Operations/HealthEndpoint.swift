import Hummingbird
import Logging

/// `GET /health`: 200 `{"status":"ok","database":"ok"}` when a trivial query succeeds, else
/// 503 with `"database":"unavailable"`, so a load balancer takes the instance out of rotation.
struct HealthEndpoint: Sendable {
    /// The storage to ping.
    let storage: ServerDatabase
    /// Where a failing database is reported.
    let logger: Logger

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/health") { _, _ in await respond() }
    }

    /// The health response.
    func respond() async -> Response {
        do {
            try await storage.ping()
            return JSONResponse.make(["status": "ok", "database": "ok"])
        } catch {
            logger.error("health check: database unavailable", metadata: ["error": "\(error)"])
            return JSONResponse.make(["status": "unavailable", "database": "unavailable"], status: .serviceUnavailable)
        }
    }
}
