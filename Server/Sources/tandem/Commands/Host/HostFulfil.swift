import ArgumentParser
import Foundation
import TandemAuth
import TandemBridge
import TandemTool
import TandemVault
import TandemWidgets

/// `tandem host fulfil`: the host's background task. With no passcode and no user, it opens the
/// vault through the paired key each widget request carries, gets a fresh access token from the
/// vault's tokens, fetches the page each request names, writes the encrypted snapshots, removes
/// the requests and locks the vault again.
struct HostFulfil: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fulfil", abstract: "Fulfil pending widget requests through the paired key (no passcode).")

    @OptionGroup var home: ExtensionOptions

    func run() async throws {
        let home = try home.home()
        let client = AppClient.tool(try home.clientConfiguration(), role: "host")
        let (_, bridgeKey) = try home.extensionCredentials()
        let container = home.container
        let fulfilment = BrokeredFulfilment(vault: home.vault, container: container, bridgeKey: bridgeKey, logger: ToolLogger.make(label: "tandem.host"))
        let outcomes = try await fulfilment.fulfilPending(fetch: Self.fetchPage(client: client))
        JSONLine.print(["outcomes": outcomes.map(Self.describe)])
    }

    /// How the host fetches what a request names: the entity-set page, with an access token from
    /// the vault's tokens (refreshed single-flight if needed); the snapshot lives 15 minutes.
    static func fetchPage(client: AppClient) -> @Sendable (DataRequest, Vault) async throws -> FetchedData {
        { request, vault in
            let key = try request.decodeKey(EntitySetKey.self)
            let response = try await client.get(key.resourcePath, tokens: try RefreshCoordinator.host(vault: vault, oauth: client.oauth))
            guard response.isSuccess else { throw AuthError(response: response) }
            return FetchedData(payload: response.body, etag: response.headers["ETag"], lifetime: 15 * 60)
        }
    }

    /// One outcome as JSON: the request, what happened and, for failures, why (never a secret).
    static func describe(_ outcome: FulfilmentOutcome) -> [String: Any] {
        var object: [String: Any] = ["request": outcome.request.id, "kind": outcome.request.kind]
        switch outcome {
        case .fulfilled: object["result"] = "fulfilled"
        case .refused: object["result"] = "refused"
        case .failed(_, let failure): object["result"] = "failed"; object["detail"] = "\(failure)"
        }
        return object
    }
}
