import AsyncHTTPClient
import NIOCore
import NIOPosix
import NIOSSL

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns an error from async-http-client, NIO or NIOSSL into an ``OutboundCallError`` that
/// names the origin and a fixed reason, never the underlying error's text (which may quote a
/// URL), except for TLS, whose messages name only certificates and hosts.
enum TransportFailure {
    static func classify(_ error: any Error, origin: BackendOrigin) -> OutboundCallError {
        let origin = origin.description
        switch error {
        case let error as OutboundCallError:
            return error
        case is CancellationError:
            return .cancelled
        case let error as HTTPClientError:
            return classify(error, origin: origin)
        case let error as NIOSSLError:
            return .tlsFailed(origin: origin, detail: String(describing: error))
        case let error as NIOSSLExtraError:
            return .tlsFailed(origin: origin, detail: String(describing: error))
        case let error as BoringSSLError:
            return .tlsFailed(origin: origin, detail: String(describing: error))
        case let error as NIOConnectionError:
            let reasons =
                (error.connectionErrors.map(\.error) + [error.dnsAAAAError, error.dnsAError].compactMap { $0 })
            return .connectionFailed(origin: origin, reason: reasons.first.map(reason(for:)) ?? "no address answered")
        case ChannelError.connectTimeout:
            return .timedOut(.connect)
        case is ChannelError:
            return .connectionFailed(origin: origin, reason: "the connection broke")
        default:
            return .connectionFailed(origin: origin, reason: reason(for: error))
        }
    }

    private static func classify(_ error: HTTPClientError, origin: String) -> OutboundCallError {
        switch error {
        case .connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout:
            return .timedOut(.connect)
        case .deadlineExceeded, .readTimeout, .writeTimeout:
            return .timedOut(.request)
        case .cancelled:
            return .cancelled
        case .alreadyShutdown:
            return .shutDown
        case .remoteConnectionClosed:
            return .connectionFailed(
                origin: origin, reason: "the backend closed the connection before a whole response")
        default:
            return .connectionFailed(origin: origin, reason: error.shortDescription.lowercased())
        }
    }

    private static func reason(for error: any Error) -> String {
        guard let error = error as? IOError else {
            return "the connection failed"
        }
        switch error.errnoCode {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "connection reset"
        case EHOSTUNREACH, ENETUNREACH: return "no route to the host"
        case ETIMEDOUT: return "the connection timed out"
        default: return "the connection failed (errno \(error.errnoCode))"
        }
    }
}
