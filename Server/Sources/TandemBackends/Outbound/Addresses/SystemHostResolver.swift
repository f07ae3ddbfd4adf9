import NIOPosix
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resolves host names with the system's `getaddrinfo`, on a NIO thread pool so that a slow
/// resolver blocks neither an event loop nor Swift's cooperative threads. A cancelled caller
/// returns at once; the lookup finishes on its thread and its answer is dropped.
public struct SystemHostResolver: HostResolving {
    private let threadPool: NIOThreadPool

    /// Creates a resolver that looks names up on `threadPool` (default NIO's shared pool).
    public init(threadPool: NIOThreadPool = .singleton) {
        self.threadPool = threadPool
    }

    /// The IPv4 and IPv6 addresses of `host`, in the order `getaddrinfo` gives them.
    public func addresses(of host: String) async throws(OutboundCallError) -> [IPAddress] {
        let answer = Answer()
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                answer.wait(with: continuation)
                threadPool.submit { state in
                    guard case .active = state else { return answer.deliver(.failure(.resolutionFailed(host: host))) }
                    answer.deliver(Self.lookUp(host))
                }
            }
        } onCancel: {
            answer.deliver(.failure(.cancelled))
        }
        return try result.get()
    }

    private static func lookUp(_ host: String) -> Result<[IPAddress], OutboundCallError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else {
            return .failure(.resolutionFailed(host: host))
        }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let address = address(of: entry.pointee), !addresses.contains(address) {
                addresses.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        return addresses.isEmpty ? .failure(.resolutionFailed(host: host)) : .success(addresses)
    }

    private static func address(of entry: addrinfo) -> IPAddress? {
        guard let socketAddress = entry.ai_addr else { return nil }
        let raw = UnsafeRawPointer(socketAddress)
        switch entry.ai_family {
        case AF_INET where entry.ai_addrlen >= MemoryLayout<sockaddr_in>.size:
            let v4 = raw.loadUnaligned(as: sockaddr_in.self)
            return .v4(UInt32(bigEndian: v4.sin_addr.s_addr))
        case AF_INET6 where entry.ai_addrlen >= MemoryLayout<sockaddr_in6>.size:
            var v6 = raw.loadUnaligned(as: sockaddr_in6.self)
            let value = withUnsafeBytes(of: &v6.sin6_addr) { bytes in
                bytes.reduce(UInt128(0)) { $0 << 8 | UInt128($1) }
            }
            return .v6(value)
        default:
            return nil
        }
    }
}

extension SystemHostResolver {
    /// The one answer of a lookup, handed to the waiting caller exactly once, whether the lookup
    /// or a cancellation comes first.
    private final class Answer: Sendable {
        private struct State {
            var continuation: CheckedContinuation<Result<[IPAddress], OutboundCallError>, Never>?
            var result: Result<[IPAddress], OutboundCallError>?
            var resumed = false
        }

        private let state = Mutex(State())

        func wait(with continuation: CheckedContinuation<Result<[IPAddress], OutboundCallError>, Never>) {
            let early = state.withLock { state -> Result<[IPAddress], OutboundCallError>? in
                guard let result = state.result else {
                    state.continuation = continuation
                    return nil
                }
                state.resumed = true
                return result
            }
            if let early { continuation.resume(returning: early) }
        }

        func deliver(_ result: Result<[IPAddress], OutboundCallError>) {
            let waiting = state.withLock {
                state -> CheckedContinuation<Result<[IPAddress], OutboundCallError>, Never>? in
                guard !state.resumed, state.result == nil else { return nil }
                state.result = result
                guard let continuation = state.continuation else { return nil }
                state.resumed = true
                state.continuation = nil
                return continuation
            }
            waiting?.resume(returning: result)
        }
    }
}
