import AsyncHTTPClient
import Foundation
import NIOCore
import NIOSSL
import TandemProtocol

/// The server's connection to APNs: HTTP/2 over TLS (async-http-client negotiates `h2` by
/// ALPN and keeps the connection open between sends, as Apple asks), one request per
/// notification.
///
/// ```swift
/// let client = try APNsClient(settings: configuration.push)
/// let answer = try await client.send(notification, to: token, in: .production, providerToken: jwt)
/// try await client.shutdown()
/// ```
final class APNsClient: Sendable {
    private let http: HTTPClient
    private let settings: PushSettings

    /// A client for the services `settings` names, trusting the system's roots and its
    /// additional ones.
    ///
    /// - Throws: ``APNsError/invalidKey(_:)`` when the additional roots are not PEM certificates.
    /// Call ``shutdown()`` when done: async-http-client requires it.
    init(settings: PushSettings) throws(APNsError) {
        var configuration = HTTPClient.Configuration(tlsConfiguration: try Self.tlsConfiguration(settings))
        configuration.httpVersion = .automatic
        configuration.timeout = .init(connect: .seconds(5), read: TimeAmount(settings.requestTimeout))
        configuration.redirectConfiguration = .disallow
        http = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        self.settings = settings
    }

    /// The TLS configuration for `settings`: the system's roots and the additional ones, ALPN `h2`.
    ///
    /// - Throws: ``APNsError/invalidKey(_:)`` when the additional roots are not PEM certificates.
    static func tlsConfiguration(_ settings: PushSettings) throws(APNsError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if let pem = settings.additionalTrustRootsPEM {
            do {
                tls.additionalTrustRoots = [.certificates(try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8)))]
            } catch {
                throw .invalidKey("the additional APNs trust roots are not PEM certificates: \(error)")
            }
        }
        tls.applicationProtocols = ["h2"]
        return tls
    }

    /// Sends `notification` to the device token `token` in `environment`.
    ///
    /// - Returns: APNs' answer (a refusal is an answer, not an error).
    /// - Throws: ``APNsError/unreachable(_:)`` when no answer came.
    func send(
        _ notification: APNsNotification, to token: String, in environment: PushEnvironment, providerToken: String
    ) async throws(APNsError) -> APNsResponse {
        let base = environment == .production ? settings.productionURL : settings.sandboxURL
        var request = HTTPClientRequest(url: base + "/3/device/" + token)
        request.method = .POST
        request.headers.add(name: "authorization", value: "bearer " + providerToken)
        request.headers.add(name: "apns-topic", value: notification.topic)
        request.headers.add(name: "apns-push-type", value: notification.pushType)
        request.headers.add(name: "apns-priority", value: String(notification.priority))
        request.headers.add(name: "apns-expiration", value: String(notification.expiration))
        request.headers.add(name: "apns-collapse-id", value: notification.collapseID)
        request.headers.add(name: "apns-id", value: notification.id)
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: notification.payload))
        do {
            let response = try await http.execute(request, timeout: TimeAmount(settings.requestTimeout))
            let body = try await response.body.collect(upTo: 16 * 1024)
            return Self.response(status: Int(response.status.code), apnsID: response.headers.first(name: "apns-id"), body: body)
        } catch {
            throw .unreachable(String(describing: error))
        }
    }

    /// Closes the connections.
    func shutdown() async {
        try? await http.shutdown()
    }

    /// An answer from its status and its JSON body (`{"reason": …, "timestamp": …}`).
    static func response(status: Int, apnsID: String?, body: ByteBuffer) -> APNsResponse {
        struct Refusal: Decodable {
            var reason: String?
            var timestamp: Int64?
        }
        let refusal = body.readableBytes > 0 ? try? JSONDecoder().decode(Refusal.self, from: Data(body.readableBytesView)) : nil
        return APNsResponse(status: status, reason: refusal?.reason, apnsID: apnsID, unregisteredAt: refusal?.timestamp)
    }
}
