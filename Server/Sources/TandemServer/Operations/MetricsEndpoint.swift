import HTTPTypes
import Hummingbird
import Metrics
import NIOCore
import Prometheus
import TandemProtocol

/// `GET /metrics`: the process's metrics in the Prometheus text format, for a scraper that
/// presents the metrics token (`Authorization: Bearer …`).
///
/// Request counts and durations come from Hummingbird's `MetricsMiddleware` through
/// swift-metrics; the Prometheus backend is bootstrapped once per process on first use. They
/// tell a stranger which clients and routes are busy, so they need a credential: without a
/// configured token the endpoint is off (404), with one a request without it gets 401. The
/// server keeps only the token's SHA-256 and compares in constant time.
struct MetricsEndpoint: Sendable {
    /// The SHA-256 (hex) of the token a scraper presents; `nil` serves no metrics.
    let tokenHash: String?

    /// The process-wide registry, bootstrapped as the swift-metrics backend on first access.
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/metrics") { request, _ in
            guard let tokenHash else {
                return Self.refusal(.notFound, "metrics are off: start the server with a metrics token")
            }
            guard let header = request.headers[.authorization], let presented = RequestAuthorizer.bearerToken(in: header),
                  ConstantTime.equals(SecretToken.hash(presented), tokenHash)
            else {
                var response = Self.refusal(.unauthorized, "present the metrics token as a bearer token")
                response.headers[.wwwAuthenticate] = #"Bearer realm="metrics""#
                return response
            }
            var buffer: [UInt8] = []
            Self.registry.emit(into: &buffer)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
    }

    private static func refusal(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }
}
