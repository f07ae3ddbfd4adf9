/// What the host's `WidgetCenter` calls do in a ``PhoneDay``: they reload the widgets of the
/// ``TimelineSimulator`` the app's widgets live in. A host's `WidgetReloader` forwards to it.
public struct WidgetReloads: Sendable {
    private let all: @Sendable () async -> Void
    private let ofKind: @Sendable (String) async -> Void

    /// Reloads that call `all` and `ofKind`.
    public init(all: @escaping @Sendable () async -> Void, ofKind: @escaping @Sendable (String) async -> Void) {
        self.all = all
        self.ofKind = ofKind
    }

    /// `WidgetCenter.shared.reloadAllTimelines()`.
    public func reloadAllTimelines() async {
        await all()
    }

    /// `WidgetCenter.shared.reloadTimelines(ofKind:)`.
    public func reloadTimelines(ofKind kind: String) async {
        await ofKind(kind)
    }
}
