import Crypto
import Foundation
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemVault

/// Registers the device's push tokens with the server whenever they change: the host's own
/// APNs device token (background pushes wake it to run its background flow) and the widget
/// extension's WidgetKit push token (iOS 26: pushes reload the widgets), which the extension
/// leaves sealed in the shared container because its read-only grant cannot register anything.
/// With them go what the placed widgets show (``WidgetPushSubscriptions``, from the container's
/// registry) and the device's time zone: the server pushes only changes the widgets show, and
/// paces them to the day's budget. A reconfigured widget is a new registration. Once the server
/// took the widgets' token, the step leaves a sealed ``TandemSharedContainer/WidgetPushStatus`` in
/// the container: the widgets then reload on pushes and only rarely on their own schedule.
///
/// Runs in every phase, after authentication: a token the system hands over while the app is
/// away is registered by the next background run. What was registered last is remembered (as a
/// digest, in the vault), so an unchanged registration costs no request. The device's id is
/// made once and kept in the vault.
///
/// ```swift
/// Flow([ConfigurationStep(), VaultStep(), AuthenticationStep(), ExtensionAccessStep(),
///       PushRegistrationStep(environment: .production, delivery: .direct, hostToken: { await PushTokens.shared.deviceToken }),
///       SettingsStep(), ExtensionCommunicationStep()])
/// ```
public struct PushRegistrationStep: Step {
    public let name = "push registration"
    private let environment: PushEnvironment
    private let delivery: PushWidgetSubscription.Delivery
    private let timeZone: @Sendable () -> String?
    private let hostToken: @Sendable () async -> Data?

    /// A step registering tokens of `environment`; `hostToken` returns the app's APNs device
    /// token as the system last handed it over (`nil` before it has one).
    ///
    /// - Parameters:
    ///   - environment: The tokens' APNs environment.
    ///   - delivery: How the app's widgets get their rows: `.direct` (they fetch themselves; a
    ///     WidgetKit push reloads them) or `.brokered` (the host fetches; a background push wakes it).
    ///   - timeZone: The device's time zone (IANA); the current one by default.
    ///   - hostToken: The app's APNs device token.
    public init(
        environment: PushEnvironment, delivery: PushWidgetSubscription.Delivery = .brokered,
        timeZone: @escaping @Sendable () -> String? = { TimeZone.current.identifier }, hostToken: @escaping @Sendable () async -> Data?
    ) {
        self.environment = environment
        self.delivery = delivery
        self.timeZone = timeZone
        self.hostToken = hostToken
    }

    /// The vault item holding the device's id.
    static let deviceIDKey = "tandem.push.device-id"
    /// The vault item holding the digest of the last registration.
    static let registeredKey = "tandem.push.registered"

    public func onboard(in context: FlowContext) async throws -> StepResult {
        try await register(context)
    }

    public func restore(in context: FlowContext) async throws -> StepResult {
        try await register(context)
    }

    public func background(in context: FlowContext) async throws -> StepResult {
        guard let share = try context.auxiliaryShare() else { return .skipped("extension access is not enabled") }
        guard try await tokens(context) != nil else { return .skipped("no push token yet") }
        try context.vault.unlock(pairedKey: share)
        defer { context.vault.lock() }
        return try await register(context)
    }

    /// Registers the current tokens unless they are what was registered last.
    private func register(_ context: FlowContext) async throws -> StepResult {
        guard context.configuration?.securityMode == .oauth else { return .skipped("pushes need the user's grant (an OAuth app)") }
        guard let (host, widgets) = try await tokens(context) else { return .skipped("no push token yet") }
        let registered = VaultItem<String>(vault: context.vault, key: Self.registeredKey, what: "the push registration")
        let subscriptions = WidgetPushSubscriptions.read(from: context.container, delivery: delivery)
        let zone = timeZone()
        let digest = Self.digest(environment: environment, host: host, widgets: widgets, subscriptions: subscriptions, timeZone: zone)
        if try registered.load() == digest { return .skipped("push tokens unchanged") }
        let client = try context.client()
        guard case .tokens(let provider) = try RequestCredentials.host(client: client, vault: context.vault, publishingEndIn: context.container)
        else { return .skipped("pushes need the user's grant (an OAuth app)") }
        try await PushRegistrar.register(
            deviceID: try deviceID(context), environment: environment, hostToken: host, widgetsToken: widgets, widgets: subscriptions,
            timeZone: zone, with: client, tokens: provider)
        try registered.save(digest)
        // The widgets may spend their reloads on pushes now, instead of on polling.
        if let key = try SharedSealingKey.load(from: context.sharedSecrets) {
            if widgets != nil {
                try context.container.widgetPushStatus.write(WidgetPushStatus(registeredAt: context.clock.now), sealingKey: key)
            } else {
                try context.container.widgetPushStatus.remove()
            }
        }
        let kinds = [host.map { _ in "host" }, widgets.map { _ in "widgets" }].compactMap { $0 }
        return .completed(
            "registered the \(kinds.joined(separator: " and ")) push token\(kinds.count == 1 ? "" : "s") for \(subscriptions.count) widget\(subscriptions.count == 1 ? "" : "s")")
    }

    /// The host's token and the widgets' (an unreadable widgets record counts as none: the
    /// container is written by anyone); `nil` when there is neither. A widgets' token WidgetKit
    /// handed over before the widgets were armed (``TandemSharedContainer/PendingWidgetPushToken``)
    /// is sealed into the container now, where the next reads find it.
    private func tokens(_ context: FlowContext) async throws -> (host: Data?, widgets: Data?)? {
        let host = await hostToken().flatMap { PushTokenRules.isAcceptable($0) ? $0 : nil }
        var widgets: Data?
        if let key = try? SharedSealingKey.load(from: context.sharedSecrets) {
            widgets = (try? context.container.widgetPushToken.read(sealingKey: key)) ?? nil
            if widgets == nil, let pending = try? PendingWidgetPushToken.load(from: context.sharedSecrets) {
                try? context.container.widgetPushToken.write(pending, sealingKey: key)
                PendingWidgetPushToken.remove(from: context.sharedSecrets)
                widgets = pending
            }
        }
        guard host != nil || widgets != nil else { return nil }
        return (host, widgets)
    }

    /// The device's id: made once (a random UUID) and kept in the vault.
    private func deviceID(_ context: FlowContext) throws(AuthError) -> String {
        let item = VaultItem<String>(vault: context.vault, key: Self.deviceIDKey, what: "the device id")
        if let existing = try item.load() { return existing }
        let made = UUID().uuidString.lowercased()
        try item.save(made)
        return made
    }

    private static func digest(
        environment: PushEnvironment, host: Data?, widgets: Data?, subscriptions: [PushWidgetSubscription], timeZone: String?
    ) -> String {
        var hasher = SHA256()
        hasher.update(data: Data(environment.rawValue.utf8))
        for token in [host, widgets] {
            hasher.update(data: Data([token == nil ? 0 : 1]))
            if let token { hasher.update(data: token) }
        }
        // What the widgets show and the time zone: JSON of sorted, plain values is stable.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        hasher.update(data: (try? encoder.encode(subscriptions)) ?? Data())
        hasher.update(data: Data((timeZone ?? "").utf8))
        return Hex.encode(hasher.finalize())
    }
}
