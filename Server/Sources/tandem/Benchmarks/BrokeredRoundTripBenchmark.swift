import Foundation
import TandemAuth
import TandemHost
import TandemSharedContainer
import TandemTool
import TandemVault
import TandemWidgetModel
import TandemWidgets

/// Times the brokered round trip — a widget writes a request, the host fulfils it through the
/// paired key (vault open, token from the vault, GET, sealed snapshot, request removed, vault
/// locked), the widget reads and decrypts the snapshot — against the floor: the same GET alone,
/// through the same HTTP client. Both are interleaved round by round, so a noisy neighbour
/// slows both alike.
struct BrokeredRoundTripBenchmark {
    /// The timings of one run.
    struct Result {
        let roundTrip: SampleStatistics
        let plainGet: SampleStatistics
    }

    let home: HostHome
    let rounds: Int

    func run(progress: @Sendable (String) -> Void) async throws -> Result {
        let client = AppClient.tool(try home.clientConfiguration(), role: "bench")
        let (share, bridgeKey) = try home.extensionCredentials()
        let container = home.container
        let fulfilment = BrokeredFulfilment(vault: home.vault, container: container, bridgeKey: bridgeKey, logger: ToolLogger.make(label: "tandem.host"))
        let key = EntitySetKey(destination: "sales", entitySet: "Customers", limit: 20)
        // What the background flow's extension communication step runs, so that the benchmark
        // times the real thing.
        let entitySetFetch = EntitySetFetch(client: client, container: container)
        let fetch = { @Sendable (request: DataRequest, vault: Vault) async throws -> FetchedData in
            try await entitySetFetch.fetch(request, with: vault)
        }
        // The floor's token: the host's own, read once through the paired key.
        try home.vault.unlock(pairedKey: share)
        guard let tokens = try VaultTokenStore(vault: home.vault).load() else { throw CommandFailure("the host holds no tokens") }
        home.vault.lock()
        let fixedToken = FixedAccessToken(token: tokens.accessToken)

        var roundTrips: [Duration] = [], gets: [Duration] = []
        let warmup = 20
        progress("brokered round trip and plain GET: \(warmup) warm-up + \(rounds) rounds each, interleaved")
        for index in 0..<(warmup + rounds) {
            let trip = Stopwatch()
            _ = try container.requests.submit(kind: EntitySetKey.kind, key: key, share: share, bridgeKey: bridgeKey)
            let outcomes = try await fulfilment.fulfilPending(fetch: fetch)
            guard outcomes.count == 1, case .fulfilled = outcomes[0] else {
                throw CommandFailure("round \(index): the request was not fulfilled: \(outcomes.map(HostFulfil.describe))")
            }
            guard let reading = try container.snapshots.read(kind: EntitySetKey.kind, key: key, using: share), !reading.snapshot.payload.isEmpty else {
                throw CommandFailure("round \(index): the widget found no snapshot")
            }
            let tripTime = trip.elapsed

            let get = Stopwatch()
            let response = try await client.get(key.resourcePath, tokens: fixedToken)
            guard response.isSuccess else { throw CommandFailure("plain GET answered \(response.status)") }
            let getTime = get.elapsed
            if index >= warmup {
                roundTrips.append(tripTime)
                gets.append(getTime)
            }
        }
        return Result(roundTrip: SampleStatistics(roundTrips), plainGet: SampleStatistics(gets))
    }
}

/// An access token that never changes, for the floor's plain GET.
private struct FixedAccessToken: AccessTokenProvider {
    let token: String
    func accessToken() async throws(AuthError) -> String { token }
    func refreshedAccessToken(replacing staleAccessToken: String) async throws(AuthError) -> String { token }
}
