import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOSSL
import TandemAPNsStandIn
import TandemProtocol
import TandemTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A running APNs stand-in on a `ManualClock`, with one provider key, one app and a real HTTP/2
/// client over TLS that trusts only the stand-in's test certificate authority: what the
/// stand-in's tests send their pushes through.
struct APNsStandInHarness {
    /// One answer as a provider reads it.
    struct Answer {
        let status: Int
        let apnsID: String?
        let reason: String?
        let timestamp: Int64?
        let isHTTP2: Bool
    }

    static let keyID = "ABC123DEFG"
    static let teamID = "DEF123GHIJ"
    static let bundleID = "com.example.tandem"
    static let widgetsTopic = "com.example.tandem.push-type.widgets"

    let apns: APNsStandIn
    let clock: ManualClock
    let signingKey: P256.Signing.PrivateKey
    let devices: TemporaryDirectory
    let client: HTTPClient

    /// Runs `body` against a fresh stand-in and shuts everything down afterwards.
    static func with(_ body: (APNsStandInHarness) async throws -> Void) async throws {
        let clock = ManualClock()
        let signingKey = P256.Signing.PrivateKey()
        let devices = try TemporaryDirectory()
        var logger = Logger(label: "test.apns-standin")
        logger.logLevel = .warning
        let apns = try await APNsStandIn.start(
            APNsStandInConfiguration(
                providerKeys: [APNsStandInProviderKey(keyID: keyID, teamID: teamID, publicKey: signingKey.publicKey)],
                bundleIDs: [bundleID], devicesDirectory: devices.url, clock: clock),
            logger: logger)
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates([try NIOSSLCertificate(bytes: Array(apns.certificateAuthorityPEM.utf8), format: .pem)])
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let harness = APNsStandInHarness(apns: apns, clock: clock, signingKey: signingKey, devices: devices, client: client)
        do {
            try await body(harness)
        } catch {
            try? await client.shutdown()
            try? await apns.shutdown()
            throw error
        }
        try await client.shutdown()
        try await apns.shutdown()
    }

    /// A provider token signed with the harness's key (or `key`), issued at `issuedAt` (by default
    /// the stand-in's now).
    func providerToken(issuedAt: Date? = nil, key: P256.Signing.PrivateKey? = nil, teamID: String = teamID) throws -> String {
        let iat = Int64((issuedAt ?? clock.now).timeIntervalSince1970)
        let header = Base64URL.encode(Data(#"{"alg":"ES256","kid":"\#(Self.keyID)"}"#.utf8))
        let claims = Base64URL.encode(Data(#"{"iss":"\#(teamID)","iat":\#(iat)}"#.utf8))
        let signature = try (key ?? signingKey).signature(for: Data("\(header).\(claims)".utf8))
        return "\(header).\(claims).\(Base64URL.encode(signature.rawRepresentation))"
    }

    /// A WidgetKit push's headers.
    static let widgetsHeaders = ["apns-topic": widgetsTopic, "apns-push-type": "widgets", "apns-priority": "10"]
    /// A WidgetKit push's payload.
    static let widgetsPayload = #"{"aps":{"content-changed":true}}"#
    /// A background push's headers.
    static let backgroundHeaders = ["apns-topic": bundleID, "apns-push-type": "background", "apns-priority": "5"]
    /// A background push's payload.
    static let backgroundPayload = #"{"aps":{"content-available":1},"tandem":{"sets":["orders"]}}"#

    /// POSTs `payload` to `/3/device/<token>` over HTTP/2 with `headers` and, unless `token` is
    /// `nil`, `authorization: bearer <providerToken>` (a fresh one by default).
    func send(
        to deviceToken: String, headers: [String: String], payload: String, providerToken: String?? = .none,
        method: String = "POST", path: String? = nil
    ) async throws -> Answer {
        var request = HTTPClientRequest(url: "https://localhost:\(apns.port)\(path ?? "/3/device/\(deviceToken)")")
        request.method = .init(rawValue: method)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let bearer: String? = try providerToken ?? self.providerToken()
        if let bearer { request.headers.add(name: "authorization", value: "bearer \(bearer)") }
        if method == "POST" { request.body = .bytes(Array(payload.utf8)) }
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 64 * 1024)
        let object = try? JSONDecoder().decode(JSONValue.self, from: Data(body.readableBytesView))
        var reason: String?
        var timestamp: Int64?
        if case .object(let fields)? = object {
            if case .string(let text)? = fields["reason"] { reason = text }
            if case .number(let number)? = fields["timestamp"] { timestamp = Int64(number) }
        }
        return Answer(
            status: Int(response.status.code), apnsID: response.headers.first(name: "apns-id"), reason: reason,
            timestamp: timestamp, isHTTP2: response.version == .http2)
    }

    /// Whether something accepts TCP connections on 127.0.0.1:`port` (a refused connect answers at
    /// once, unlike an HTTP client that retries until its deadline).
    static func acceptsConnections(port: Int) -> Bool {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }
}
