#if canImport(WidgetKit) && os(iOS)
import WidgetKit
import TandemWidgetModel

/// Any Tandem `WidgetProvider` as a WidgetKit `TimelineProvider`, for a `StaticConfiguration`
/// widget: one configuration fixed by the extension, nothing for the user to choose.
///
/// Every request runs the provider's `async` method in a task and calls WidgetKit's completion
/// handler once with its answer. The widget extension's Info.plist declares
/// `NSExtensionPointIdentifier` `com.apple.widgetkit-extension`; a ``DataWidgetProvider`` also
/// needs the App Groups entitlement (`com.apple.security.application-groups`) for its container
/// and the keychain sharing group (`keychain-access-groups`) its credentials are read from.
///
/// ```swift
/// StaticConfiguration(kind: "orders", provider: StaticWidgetTimelineProvider(
///     provider: provider, configuration: DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders"))
/// ) { entry in
///     WidgetContentView(content: entry.content)
/// }
/// ```
public struct StaticWidgetTimelineProvider<Provider: WidgetProvider>: TimelineProvider, Sendable {
    /// The entries: the provider's, wrapped for WidgetKit.
    public typealias Entry = WidgetKitEntry<Provider.Entry>

    /// The Tandem provider.
    public let provider: Provider
    /// The configuration every instance of the widget shows.
    public let configuration: Provider.Configuration

    /// A timeline provider answering with `provider`'s entries for `configuration`.
    public init(provider: Provider, configuration: Provider.Configuration) {
        self.provider = provider
        self.configuration = configuration
    }

    /// The provider's placeholder: synchronous, no I/O.
    public func placeholder(in context: Context) -> Entry {
        WidgetKitEntry(provider.placeholder(in: WidgetContext(context)))
    }

    /// The provider's snapshot for ``configuration``.
    public func getSnapshot(in context: Context, completion: @escaping (Entry) -> Void) {
        let (provider, configuration, context) = (provider, configuration, WidgetContext(context))
        // WidgetKit takes the answer on any thread; newer SDKs declare the handler `@Sendable`
        // (`@preconcurrency`), older ones do not, and this signature is a witness for both.
        nonisolated(unsafe) let completion = completion
        Task {
            completion(WidgetKitEntry(await provider.snapshot(for: configuration, in: context)))
        }
    }

    /// The provider's timeline for ``configuration``, with its reload policy.
    public func getTimeline(in context: Context, completion: @escaping (WidgetKit.Timeline<Entry>) -> Void) {
        let (provider, configuration, context) = (provider, configuration, WidgetContext(context))
        nonisolated(unsafe) let completion = completion
        Task {
            completion(await provider.timeline(for: configuration, in: context).widgetKitTimeline)
        }
    }
}
#endif
