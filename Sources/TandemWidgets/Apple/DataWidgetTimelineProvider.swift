// iOS 17 SDK or later only: see the guard's reason in DataWidgetIntent.swift.
#if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents
import WidgetKit
import TandemWidgetModel

/// A ``DataWidgetProvider`` as WidgetKit's `AppIntentTimelineProvider`, for a business widget the
/// user configures with ``DataWidgetIntent``: the intent becomes a `DataWidgetConfiguration`,
/// WidgetKit's context a `WidgetContext`, the provider's policy a `TimelineReloadPolicy`.
///
/// A widget with no data chosen yet (the catalog was empty when it was added) shows
/// ``unchosenContent`` until the user edits it. Declare the widget under the provider's
/// ``DataWidgetProvider/kind``, which its tap links carry. The extension needs the App Groups
/// entitlement (`com.apple.security.application-groups`), the keychain sharing group
/// (`keychain-access-groups`) and, in its Info.plist, `NSExtensionPointIdentifier`
/// `com.apple.widgetkit-extension`.
///
/// ```swift
/// AppIntentConfiguration(kind: provider.kind, intent: DataWidgetIntent.self,
///                        provider: DataWidgetTimelineProvider(provider: provider)) { entry in
///     WidgetContentView(content: entry.content)
/// }
/// ```
@available(iOS 17.0, *)
public struct DataWidgetTimelineProvider: AppIntentTimelineProvider, Sendable {
    /// The intent the user edits.
    public typealias Intent = DataWidgetIntent
    /// The provider's entries, wrapped for WidgetKit.
    public typealias Entry = WidgetKitEntry<WidgetContentEntry>

    /// What a widget shows while no data is chosen.
    public static let unchosenContent = WidgetContent(
        title: "Business data", rows: [], state: .unavailable, footer: "edit the widget to choose its data")

    /// The business-data provider.
    public let provider: DataWidgetProvider

    /// A timeline provider answering with `provider`'s entries.
    public init(provider: DataWidgetProvider) {
        self.provider = provider
    }

    /// The provider's placeholder: sample rows, no I/O.
    public func placeholder(in context: Context) -> Entry {
        WidgetKitEntry(provider.placeholder(in: WidgetContext(context)))
    }

    /// The provider's snapshot of the chosen data (sample rows in the gallery).
    public func snapshot(for intent: DataWidgetIntent, in context: Context) async -> Entry {
        let context = WidgetContext(context)
        guard let configuration = intent.configuration else {
            return WidgetKitEntry(context.isPreview ? provider.placeholder(in: context) : unchosenEntry())
        }
        return WidgetKitEntry(await provider.snapshot(for: configuration, in: context))
    }

    /// The provider's timeline of the chosen data; with none chosen, ``unchosenContent`` until
    /// the user edits the widget (which brings a new timeline).
    public func timeline(for intent: DataWidgetIntent, in context: Context) async -> WidgetKit.Timeline<Entry> {
        let context = WidgetContext(context)
        guard let configuration = intent.configuration else {
            return WidgetKit.Timeline(entries: [WidgetKitEntry(unchosenEntry())], policy: .never)
        }
        return await provider.timeline(for: configuration, in: context).widgetKitTimeline
    }

    private func unchosenEntry() -> WidgetContentEntry {
        WidgetContentEntry(date: provider.clock.now, content: Self.unchosenContent)
    }
}
#endif
