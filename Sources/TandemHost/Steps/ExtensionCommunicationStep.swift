import Foundation
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemVault
import TandemWidgetModel
import TandemWidgets

/// The work for the extensions, in the background flow with no user present, and in the
/// restoring flow once the user unlocked the app (so opening the app answers a widget that
/// says "open the app to update"):
/// 1. asks for a snapshot for every configured widget whose rows are missing, no longer
///    fresh, or fetched before the server said its data changed
///    (``FlowContext/contentChangedAt``, set when a background push arrives): the request a
///    widget would write itself;
/// 2. fulfils every pending request through the paired key each one carries
///    (``BrokeredFulfilment``): open the vault, fetch with the ``DataSource`` of the request's
///    kind, write the sealed snapshot, complete the request, lock the vault; a request of a kind
///    no source answers is answered once as unsupported (``UnsupportedDataKind``);
/// 3. asks the system to reload the widgets when anything new was written.
///
/// In the background the vault is opened with each request's share and locked again; when
/// restoring, the user's session is used as it is (`BrokeredFulfilment/fulfilInSession(_:currentShare:fetch:)`).
/// A request that fails stays pending with nothing written; the next run tries it again.
/// Cancellation (the system's time is up) is honoured between requests.
public struct ExtensionCommunicationStep: Step {
    public let name = "extension communication"
    private let reloader: (any WidgetReloader)?
    private let snapshotLifetime: TimeInterval
    private let sources: DataSources
    private let onFulfilment: @Sendable ([FulfilmentOutcome]) -> Void

    /// An extension communication step.
    ///
    /// - Parameters:
    ///   - reloader: Asked to reload every widget after new snapshots (`WidgetCenter` on a phone);
    ///     a widget whose schedule has no request reload (the default) waits for this reload.
    ///   - snapshotLifetime: Seconds a fetched snapshot counts as fresh; by default as long as a
    ///     widget counts its rows fresh (`DataWidgetSchedule/defaultFreshness`, 40 minutes).
    ///   - sources: Which ``DataSource`` answers each request kind (default entity-set pages and
    ///     key figures).
    ///   - onFulfilment: Told each run's outcomes, request by request.
    public init(
        reloader: (any WidgetReloader)? = nil, snapshotLifetime: TimeInterval = DataWidgetSchedule.defaultFreshness,
        sources: DataSources = .standard, onFulfilment: @escaping @Sendable ([FulfilmentOutcome]) -> Void = { _ in }
    ) {
        self.reloader = reloader
        self.snapshotLifetime = snapshotLifetime
        self.sources = sources
        self.onFulfilment = onFulfilment
    }

    public func background(in context: FlowContext) async throws -> StepResult {
        try await serve(in: context, inSession: false)
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        try await serve(in: context, inSession: true)
    }

    /// Asks for the configured widgets' stale rows, fulfils every request and reloads the
    /// widgets; `inSession` uses the vault as the user unlocked it instead of each request's share.
    private func serve(in context: FlowContext, inSession: Bool) async throws -> StepResult {
        guard let share = try context.auxiliaryShare(),
            let sealingKey = try SharedSealingKey.load(from: context.sharedSecrets)
        else {
            return .skipped("extension access is not enabled")
        }
        // Listed (and opened) once: what was waiting, then what this run asks for itself. A
        // request written meanwhile wakes the host again and is served by the next run.
        let waiting = try context.container.requests.pending(sealingKey: sealingKey)
        let asked = try requestStaleWidgets(context, share: share, sealingKey: sealingKey, besides: waiting)
        let fulfilment = BrokeredFulfilment(
            vault: context.vault, container: context.container, sealingKey: sealingKey, logger: context.logger, clock: context.clock)
        let sourceContext = DataSourceContext(client: try context.client(), container: context.container, lifetime: snapshotLifetime)
        var outcomes: [FulfilmentOutcome] = []
        for request in waiting + asked {
            try Task.checkCancellation()
            guard let source = sources.source(for: request.kind) else {
                outcomes.append(fulfilment.answerUnsupported(request))
                continue
            }
            if inSession {
                outcomes += await fulfilment.fulfilInSession([request], currentShare: share) { request, vault in
                    try await source.fetch(request, with: vault, in: sourceContext)
                }
            } else {
                outcomes += await fulfilment.fulfil([request]) { request, vault in try await source.fetch(request, with: vault, in: sourceContext) }
            }
        }
        onFulfilment(outcomes)
        let fulfilled = outcomes.filter { if case .fulfilled = $0 { true } else { false } }.count
        if fulfilled > 0, let reloader {
            await reloader.reloadAllTimelines()
        }
        let failed = outcomes.count - fulfilled
        return .completed(
            "\(fulfilled) request\(fulfilled == 1 ? "" : "s") fulfilled" + (failed > 0 ? ", \(failed) not" : "")
                + (asked.isEmpty ? "" : " (\(asked.count) for configured widgets)"))
    }

    /// Writes a request for each configured widget whose snapshot is missing or not fresh, unless
    /// one is already `waiting` (rewriting it would only wake a host that waits for new
    /// requests), and returns the requests written.
    private func requestStaleWidgets(
        _ context: FlowContext, share: AuxiliaryShare, sealingKey: SharedSealingKey, besides waiting: [DataRequest]
    ) throws -> [DataRequest] {
        let alreadyAsked = Set(waiting.filter { $0.kind == EntitySetKey.kind }.compactMap { try? $0.decodeKey(EntitySetKey.self) })
        var keys = Set<EntitySetKey>()
        for record in try context.container.widgets.configurations() {
            guard let configuration = try? DataWidgetConfiguration(parameters: record.parameters) else { continue }
            keys.insert(configuration.entitySetKey)
        }
        var asked: [DataRequest] = []
        for key in keys where !alreadyAsked.contains(key) {
            let reading = try? context.container.snapshots.read(kind: EntitySetKey.kind, key: key, using: share, now: context.clock.now)
            if let reading, case .fresh = reading.freshness,
               context.contentChangedAt.map({ reading.snapshot.fetchedAt >= $0 }) ?? true
            {
                continue
            }
            asked.append(try context.container.requests.submit(kind: EntitySetKey.kind, key: key, share: share, sealingKey: sealingKey, now: context.clock.now))
        }
        return asked
    }
}
