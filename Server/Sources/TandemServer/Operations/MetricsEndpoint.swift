import Hummingbird
import Metrics
import NIOCore
import Prometheus

/// `GET /metrics`: the process's metrics in the Prometheus text format.
///
/// Request counts and durations come from Hummingbird's `MetricsMiddleware` through
/// swift-metrics; the Prometheus backend is bootstrapped once per process on first use.
struct MetricsEndpoint: Sendable {
    /// The process-wide registry, bootstrapped as the swift-metrics backend on first access.
    static let registry: PrometheusCollectorRegistry = {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        return registry
    }()

    /// Adds the route to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.get("/metrics") { _, _ in
            var buffer: [UInt8] = []
            Self.registry.emit(into: &buffer)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: buffer)))
        }
    }
}
