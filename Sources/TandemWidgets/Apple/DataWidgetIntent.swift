// iOS 17 SDK or later only. `canImport(M, _version: N)` is true when module M's user version
// (`-user-module-version` in its .swiftinterface, the `current-version` of its .tbd) is at least
// N: WidgetKit is 281.114 and AppIntents 136.100.13 in the iOS 16.5 SDK, 378.1.107 and 163.1.100
// in the iOS 17.0 SDK (Xcode 15.0), the first with `WidgetConfigurationIntent`,
// `AppIntentTimelineProvider`, `AppIntentConfiguration`, `WidgetInfo.widgetConfigurationIntent(of:)`
// and `containerBackground(for: .widget)`. An older Xcode compiles these files out instead of
// failing on names its SDK lacks; `#available` cannot do that, and `compiler(>=5.9)` would be
// wrong with a new compiler and an old SDK. The same guard is in DataWidgetTimelineProvider.swift,
// WidgetCenterRegistry.swift and View+WidgetBackground.swift (WidgetKit only).
#if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents
import TandemWidgetModel

/// The configuration of a business widget the user edits: which data (an ``EntitySetEntity``
/// from the host's catalog) and how many rows. ``DataWidgetTimelineProvider`` turns it into a
/// `DataWidgetConfiguration`.
///
/// Declared in the widget extension (whose Info.plist has `NSExtensionPointIdentifier`
/// `com.apple.widgetkit-extension`) through `AppIntentConfiguration`; the choices come from
/// ``DataWidgetCatalog``, installed when the extension starts. It needs iOS 17: on iOS 16 (the
/// package's minimum) declare the widget with a `StaticConfiguration` and
/// ``StaticWidgetTimelineProvider`` instead.
///
/// ```swift
/// AppIntentConfiguration(kind: "orders", intent: DataWidgetIntent.self,
///                        provider: DataWidgetTimelineProvider(provider: provider)) { entry in
///     WidgetContentView(content: entry.content)
/// }
/// ```
@available(iOS 17.0, *)
public struct DataWidgetIntent: WidgetConfigurationIntent {
    /// The intent's name in the widget's edit sheet.
    public static var title: LocalizedStringResource { "Business data" }
    /// What the widget shows, under the title.
    public static var description: IntentDescription? { IntentDescription("Rows of an entity set from one of your destinations.") }

    /// The data shown; `nil` until the user (or the catalog's first choice) picks one.
    @Parameter(title: "Data")
    public var entitySet: EntitySetEntity?

    /// How many rows to ask for, 1 to 500 (`DataWidgetConfiguration/maximumLimit`).
    @Parameter(title: "Rows", default: 10, inclusiveRange: (1, 500))
    public var rowCount: Int

    /// An intent with nothing chosen and 10 rows, as the system creates it.
    public init() {}

    /// An intent showing `rowCount` rows of `entitySet`, for previews and recommendations.
    public init(entitySet: EntitySetEntity?, rowCount: Int = DataWidgetConfiguration.defaultLimit) {
        self.entitySet = entitySet
        self.rowCount = rowCount
    }

    /// The widget configuration chosen, or `nil` while no data is.
    public var configuration: DataWidgetConfiguration? {
        entitySet?.configuration(limit: rowCount)
    }
}
#endif
