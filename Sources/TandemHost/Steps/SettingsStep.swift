import Foundation
import TandemAuth
import TandemPlatform
import TandemSharedContainer
import TandemVault
import TandemWidgetModel
import TandemWidgets

/// Downloads what the app's settings and its widgets' configuration offer: the server's
/// destinations listing, cached sealed in the shared container, where a widget's configuration
/// picks its destination and entity set, together with the app's Lock Screen policy (the
/// configuration's `lock_screen_redaction`), which the widgets apply. Onboarding and restoring fetch it with the user's
/// session; the background flow refreshes it when it is older than `maximumAge`, opening the
/// vault through the paired key.
public struct SettingsStep: Step {
    public let name = "settings"
    private let maximumAge: TimeInterval

    /// A settings step; the background flow refreshes a listing older than `maximumAge` seconds
    /// (`0`: every run).
    public init(maximumAge: TimeInterval = 24 * 60 * 60) {
        self.maximumAge = maximumAge
    }

    public func onboard(in context: FlowContext) async throws -> StepResult {
        guard let share = try context.auxiliaryShare() else { return .skipped("extension access is not enabled") }
        return try await download(context, share: share)
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        try await onboard(in: context)
    }

    public func background(in context: FlowContext) async throws -> StepResult {
        guard let share = try context.auxiliaryShare() else { return .skipped("extension access is not enabled") }
        if maximumAge > 0, let cached = try? DestinationCatalog.read(from: context.container, share: share),
            context.clock.now.timeIntervalSince(cached.fetchedAt) < maximumAge
        {
            return .skipped("destinations listing is recent")
        }
        try context.vault.unlock(pairedKey: share)
        defer { context.vault.lock() }
        return try await download(context, share: share)
    }

    /// Fetches the listing with the vault's tokens (the vault is open) and caches it under `share`.
    private func download(_ context: FlowContext, share: AuxiliaryShare) async throws -> StepResult {
        let client = try context.client()
        var catalog = try await DestinationCatalog.fetch(
            with: client, credentials: try .host(client: client, vault: context.vault), now: context.clock.now)
        // The widgets learn the app's Lock Screen policy with the listing, sealed the same way.
        catalog.lockScreen = context.configuration?.lockScreenRedaction == false ? .none : .accessoryFamilies
        catalog.actionPolicy = context.configuration?.actionPolicy ?? .default
        try Task.checkCancellation()
        try catalog.write(to: context.container, share: share)
        let count = catalog.options.count
        return .completed("\(count) entity set\(count == 1 ? "" : "s") offered to widgets")
    }
}
