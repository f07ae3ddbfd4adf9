import ArgumentParser
import Foundation
import Synchronization
import TandemAuth
import TandemHost
import TandemSharedContainer
import TandemTool
import TandemVault
import TandemWidgets

/// `tandem host fulfil`: one run of the host's background flow (``HostFlow``). With no passcode
/// and no user, it asks for fresh rows for every configured widget whose snapshot is missing or
/// stale, then opens the vault through the paired key each widget request carries, gets a fresh
/// access token from the vault's tokens, fetches the page each request names, writes the
/// encrypted snapshots, removes the requests and locks the vault again. Widget actions waiting
/// are executed first (`ActionExecutionStep`) and listed under `actions`.
struct HostFulfil: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fulfil", abstract: "Fulfil pending widget requests through the paired key (no passcode).")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var lifetime: SnapshotLifetimeOptions

    func run() async throws {
        let home = try home.hostHome()
        _ = try home.clientConfiguration()
        _ = try home.extensionCredentials()
        let outcomes = Mutex<[FulfilmentOutcome]>([])
        let actions = Mutex<[ActionExecutionOutcome]>([])
        let flow = HostFlow.flow(
            home: home, snapshotLifetime: lifetime.seconds, onFulfilment: { run in outcomes.withLock { $0 += run } },
            onActions: { run in actions.withLock { $0 += run } })
        try await flow.run(.background, in: HostFlow.context(home: home), observer: HostFlow.progress)
        var line: [String: Any] = ["outcomes": outcomes.withLock { $0 }.map(Self.describe)]
        let executed = actions.withLock { $0 }
        if !executed.isEmpty { line["actions"] = executed.map(HostRun.describe) }
        JSONLine.print(line)
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
