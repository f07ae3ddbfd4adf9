import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// The one way the server calls a customer's backend: HTTPS only, addresses checked after
/// resolving and the connection pinned to a checked address, same-origin redirects only,
/// bodies capped, time limited, a circuit breaker per destination, and logs without secrets.
///
/// ```swift
/// let client = try BackendHTTPClient(policy: OutboundPolicy(), logger: logger)
/// let response = try await client.send(BackendRequest(
///     .get, URL(string: "https://erp.example.com/odata/Orders?$top=20")!,
///     headers: ["Accept": "application/json", "Authorization": "Bearer " + token]))
/// let page = try BackendPageMapper.map(
///     body: response.body, headers: response.headers.pairs, mapping: orders, limit: 20)
/// try await client.shutdown()
/// ```
public final class BackendHTTPClient: Sendable {
    /// The rules every call is held to.
    public let policy: OutboundPolicy
    /// Each destination's circuit and statistics.
    public let circuitBreaker: CircuitBreaker
    private let logger: Logger
    private let vetter: AddressVetter
    private let pool: PinnedClientPool

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - policy: The rules every call is held to.
    ///   - logger: Where each call's method, origin, status, time and size are logged.
    ///   - resolver: Resolves host names (default the system's `getaddrinfo`).
    ///   - eventLoopGroup: The event loops connections run on (default NIO's shared group).
    ///   - now: The circuit breaker's clock (default the continuous clock).
    /// - Throws: ``OutboundCallError/invalidPolicy(reason:)`` for a policy with an impossible
    ///   value or a trust root that is not a PEM certificate.
    public init(
        policy: OutboundPolicy = OutboundPolicy(),
        logger: Logger,
        resolver: any HostResolving = SystemHostResolver(),
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) throws(OutboundCallError) {
        if let problem = policy.problem { throw .invalidPolicy(reason: problem) }
        let configuration = try Self.configuration(for: policy)
        self.policy = policy
        self.logger = logger
        circuitBreaker = CircuitBreaker(settings: policy.circuitBreaker, now: now)
        let rules = AddressRules(policy: policy)
        vetter = AddressVetter(rules: rules, resolver: resolver)
        pool = PinnedClientPool(capacity: 64, rules: rules) { dnsOverride in
            var pinned = configuration
            pinned.dnsOverride = dnsOverride
            return HTTPClient(
                eventLoopGroup: eventLoopGroup, configuration: pinned, backgroundActivityLogger: HTTPClient.quietLogger)
        }
    }

    /// Sends `request` under the policy and returns the whole response, after same-origin
    /// redirects. A 4xx or 5xx is a response, not an error.
    ///
    /// - Throws: ``OutboundCallError``: a refusal by a rule (before any connection), an open
    ///   circuit, a timeout, a body over the cap, or a connection or TLS failure.
    public func send(_ request: BackendRequest) async throws(OutboundCallError) -> BackendResponse {
        let start = ContinuousClock.now
        let origin = BackendOrigin(url: request.url)
        let outcome: Result<BackendResponse, OutboundCallError>
        do throws(OutboundCallError) {
            outcome = .success(try await admitAndSend(request, start: start))
        } catch {
            outcome = .failure(error)
        }
        log(request, origin: origin, outcome: outcome, elapsed: ContinuousClock.now - start)
        return try outcome.get()
    }

    /// Each destination's circuit and statistics, for an operator's page.
    public func health() -> [DestinationHealth] {
        circuitBreaker.snapshot()
    }

    /// The circuit and statistics of the origin `baseURL` names (what its calls share), or nil
    /// when nothing has been called there since the server started.
    public func health(of baseURL: String) -> DestinationHealth? {
        guard let url = URL(string: baseURL), let origin = BackendOrigin(url: url) else { return nil }
        return health().first { $0.destination == origin.description }
    }

    /// Closes every connection and refuses later calls with ``OutboundCallError/shutDown``.
    /// Calls under way fail. Call it before letting go of the client: async-http-client stops a
    /// debug build whose clients were never shut down.
    public func shutdown() async throws {
        await pool.shutdown()
    }

    /// How many underlying clients exist, one per pinned host; for tests.
    var pinnedClientCount: Int { pool.clientCount }

    private func admitAndSend(
        _ request: BackendRequest, start: ContinuousClock.Instant
    ) async throws(OutboundCallError)
        -> BackendResponse
    {
        try Self.checkHeaders(request.headers)
        let target = try BackendTarget(url: request.url, policy: policy)
        let permit = try circuitBreaker.admit(target.origin.description)
        let deadline = NIODeadline.now() + .milliseconds(policy.requestTimeout.milliseconds)
        let result: Result<BackendResponse, OutboundCallError>
        do throws(OutboundCallError) {
            result = .success(
                try await CallTimeLimit.run(within: policy.requestTimeout) { () async throws(OutboundCallError) in
                    try await self.follow(request, from: target, start: start, deadline: deadline)
                })
        } catch {
            result = .failure(error)
        }
        circuitBreaker.record(Self.circuitOutcome(of: result), latency: ContinuousClock.now - start, for: permit)
        return try result.get()
    }

    private func follow(
        _ request: BackendRequest, from target: BackendTarget, start: ContinuousClock.Instant, deadline: NIODeadline
    ) async throws(OutboundCallError) -> BackendResponse {
        var request = request
        var target = target
        var redirects = 0
        while true {
            let address = try await vetter.vettedAddress(for: target)
            let exchange = try await pool.withClient(for: target, address: address) {
                client async throws(OutboundCallError) in
                try await self.exchange(request, target: target, with: client, deadline: deadline)
            }
            let location = exchange.headers["Location"]
            guard
                let next = try RedirectStep.next(
                    after: exchange.status, location: location, request: request, origin: target.origin)
            else {
                return BackendResponse(
                    status: exchange.status, headers: exchange.headers, body: exchange.body ?? [], url: request.url,
                    elapsed: ContinuousClock.now - start)
            }
            guard redirects < policy.maximumRedirects else { throw .tooManyRedirects(limit: policy.maximumRedirects) }
            redirects += 1
            request = next
            target = try BackendTarget(url: next.url, policy: policy)
        }
    }

    private struct Exchange: Sendable {
        var status: Int
        var headers: BackendHeaders
        var body: [UInt8]?
    }

    private func exchange(
        _ request: BackendRequest, target: BackendTarget, with client: HTTPClient, deadline: NIODeadline
    ) async throws(OutboundCallError) -> Exchange {
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        for field in request.headers {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        let response: HTTPClientResponse
        do {
            response = try await client.execute(outgoing, deadline: deadline, logger: HTTPClient.quietLogger)
        } catch {
            throw TransportFailure.classify(error, origin: target.origin)
        }
        let headers = BackendHeaders(response.headers.map { BackendHeaders.Field(name: $0.name, value: $0.value) })
        let status = Int(response.status.code)
        if RedirectStep.isRedirect(status), headers["Location"]?.isEmpty == false {
            return Exchange(status: status, headers: headers, body: nil)
        }
        try BoundedBodyReader.checkDeclaredLength(
            of: response, method: request.method, limit: policy.maximumResponseBytes)
        let body = try await BoundedBodyReader.collect(
            response.body, limit: policy.maximumResponseBytes, origin: target.origin)
        return Exchange(status: status, headers: headers, body: body)
    }

    private static func checkHeaders(_ headers: BackendHeaders) throws(OutboundCallError) {
        for field in headers {
            guard HTTPToken.isToken(field.name) else { throw .invalidRequest(reason: "a header name is not a token") }
            guard HTTPToken.isFieldValue(field.value) else {
                throw .invalidRequest(reason: "the value of header \(field.name) has a control character")
            }
            guard field.name.lowercased() != "host" else {
                throw .invalidRequest(reason: "the Host header is set from the URL, not by the caller")
            }
        }
    }

    private static func circuitOutcome(of result: Result<BackendResponse, OutboundCallError>) -> CircuitOutcome {
        switch result {
        case .success(let response):
            return response.status >= 500 ? .failure : .success
        case .failure(.timedOut), .failure(.connectionFailed), .failure(.tlsFailed), .failure(.resolutionFailed):
            return .failure
        case .failure:
            return .neutral
        }
    }

    private static func configuration(for policy: OutboundPolicy) throws(OutboundCallError) -> HTTPClient.Configuration
    {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.certificateVerification = .fullVerification
        tls.minimumTLSVersion = .tlsv12
        if !policy.additionalTrustRootsPEM.isEmpty {
            var roots: [NIOSSLCertificate] = []
            for pem in policy.additionalTrustRootsPEM {
                guard let certificates = try? NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)), !certificates.isEmpty
                else {
                    throw .invalidPolicy(reason: "an additional trust root is not a PEM certificate")
                }
                roots += certificates
            }
            tls.additionalTrustRoots = [.certificates(roots)]
        }
        var configuration = HTTPClient.Configuration()
        configuration.tlsConfiguration = tls
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: .milliseconds(max(policy.connectTimeout.milliseconds, 1)), read: nil)
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.decompression = .disabled
        configuration.proxy = nil
        return configuration
    }

    private func log(
        _ request: BackendRequest, origin: BackendOrigin?, outcome: Result<BackendResponse, OutboundCallError>,
        elapsed: Duration
    ) {
        var metadata: Logger.Metadata = [
            "backend.method": "\(request.method.rawValue)",
            "backend.origin": "\(origin?.description ?? "unreadable")",
            "backend.elapsed_ms": "\(elapsed.milliseconds)",
        ]
        switch outcome {
        case .success(let response):
            metadata["backend.status"] = "\(response.status)"
            metadata["backend.bytes"] = "\(response.body.count)"
            logger.debug("backend call", metadata: metadata)
        case .failure(let error):
            metadata["backend.error"] = "\(error)"
            logger.warning("backend call failed", metadata: metadata)
        }
    }
}

extension HTTPClient {
    /// A logger that drops everything: async-http-client's own logs may quote URLs and headers.
    fileprivate static let quietLogger = Logger(
        label: "tandem.backends.ahc", factory: { _ in SwiftLogNoOpLogHandler() })
}
