import AsyncHTTPClient
import Synchronization

/// One async-http-client `HTTPClient` per host, each with a `dnsOverride` that sends the host's
/// connections to the one address the rules vetted. The host's name still goes into the
/// `Host` header, the TLS SNI and the certificate check.
///
/// Clients are keyed by the host exactly as written, since `dnsOverride` is looked up so: a
/// client pinned for `ERP.example.com` is never used for `erp.example.com`.
///
/// When a host's vetted address changes, its client is replaced; a replaced or evicted client
/// is shut down once the calls using it are done. Past `capacity` hosts, the least recently
/// used idle client is evicted.
final class PinnedClientPool: Sendable {
    private struct Entry {
        let id: UInt64
        let address: IPAddress
        let client: HTTPClient
        var calls = 0
        var lastUse: UInt64
    }

    private struct State {
        var current: [String: Entry] = [:]
        var retiring: [UInt64: Entry] = [:]
        var shutdowns: [UInt64: Task<Void, Never>] = [:]
        var isShutDown = false
        var counter: UInt64 = 0
    }

    private let capacity: Int
    private let rules: AddressRules
    private let makeClient: @Sendable (_ dnsOverride: [String: String]) -> HTTPClient
    private let state = Mutex(State())

    /// Creates a pool.
    ///
    /// - Parameters:
    ///   - capacity: How many hosts keep a client.
    ///   - rules: The address rules, checked once more on the one address a client is pinned to,
    ///     so that no client is ever made for a refused address whatever the caller checked.
    ///   - makeClient: Makes a client whose configuration carries the given `dnsOverride`.
    init(
        capacity: Int, rules: AddressRules,
        makeClient: @escaping @Sendable (_ dnsOverride: [String: String]) -> HTTPClient
    ) {
        self.capacity = max(capacity, 1)
        self.rules = rules
        self.makeClient = makeClient
    }

    /// Runs `body` with the client pinned to `address` for the target's host.
    ///
    /// - Throws: ``OutboundCallError/addressRefused(host:address:kind:)`` or
    ///   ``OutboundCallError/plainHTTPRefused(origin:)`` when `address` breaks the rules.
    func withClient<Result>(
        for target: BackendTarget, address: IPAddress, _ body: (HTTPClient) async throws(OutboundCallError) -> Result
    ) async throws(OutboundCallError) -> Result {
        if let kind = rules.refusal(for: address) {
            throw .addressRefused(host: target.origin.host, address: address, kind: kind)
        }
        if target.isPlainHTTP, !AddressRules.isLoopback(address) {
            throw .plainHTTPRefused(origin: target.origin.description)
        }
        let host = target.connectionHost
        let (id, client) = try checkOut(host: host, address: address)
        defer { checkIn(host: host, id: id) }
        return try await body(client)
    }

    /// Shuts down every client, waiting for clients already being retired; later calls fail
    /// with ``OutboundCallError/shutDown``.
    func shutdown() async {
        let (clients, shutdowns) = state.withLock { state in
            state.isShutDown = true
            let clients = state.current.values.map(\.client) + state.retiring.values.map(\.client)
            state.current = [:]
            state.retiring = [:]
            defer { state.shutdowns = [:] }
            return (clients, Array(state.shutdowns.values))
        }
        for client in clients {
            try? await client.shutdown()
        }
        for shutdown in shutdowns {
            await shutdown.value
        }
    }

    /// How many clients exist, in use or being retired; for tests.
    var clientCount: Int {
        state.withLock { $0.current.count + $0.retiring.count }
    }

    private func checkOut(host: String, address: IPAddress) throws(OutboundCallError) -> (UInt64, HTTPClient) {
        let key = host
        let result: (UInt64, HTTPClient)? = state.withLock { state in
            guard !state.isShutDown else { return nil }
            state.counter += 1
            if var entry = state.current[key], entry.address == address {
                entry.calls += 1
                entry.lastUse = state.counter
                state.current[key] = entry
                return (entry.id, entry.client)
            }
            if let replaced = state.current.removeValue(forKey: key) {
                retire(replaced, in: &state)
            }
            if state.current.count >= capacity, let idle = leastRecentlyUsedIdle(in: state) {
                if let evicted = state.current.removeValue(forKey: idle) { retire(evicted, in: &state) }
            }
            let overrides = IPAddress(host) == nil ? [host: address.description] : [:]
            let entry = Entry(
                id: state.counter, address: address, client: makeClient(overrides), calls: 1, lastUse: state.counter)
            state.current[key] = entry
            return (entry.id, entry.client)
        }
        guard let result else { throw .shutDown }
        return result
    }

    private func checkIn(host: String, id: UInt64) {
        let key = host
        state.withLock { state in
            if var entry = state.current[key], entry.id == id {
                entry.calls -= 1
                state.current[key] = entry
            } else if var entry = state.retiring[id] {
                entry.calls -= 1
                state.retiring[id] = entry
                if entry.calls == 0 { retire(entry, in: &state) }
            }
        }
    }

    private func retire(_ entry: Entry, in state: inout State) {
        guard entry.calls == 0 else {
            state.retiring[entry.id] = entry
            return
        }
        state.retiring[entry.id] = nil
        let client = entry.client
        let id = entry.id
        state.shutdowns[id] = Task {
            try? await client.shutdown()
            self.state.withLock { _ = $0.shutdowns.removeValue(forKey: id) }
        }
    }

    private func leastRecentlyUsedIdle(in state: State) -> String? {
        state.current.filter { $0.value.calls == 0 }.min { $0.value.lastUse < $1.value.lastUse }?.key
    }
}
