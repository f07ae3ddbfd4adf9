// iOS 17 SDK or later only: see the guard's reason in DataWidgetIntent.swift.
#if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163) && os(iOS)
import AppIntents

/// The App Intents this library declares (``DataWidgetIntent``, ``EntitySetEntity``), as a
/// package the system can find: App Intents outside the app's own targets are discovered only
/// through a chain of `AppIntentsPackage` types. The widget extension (and the app, if it offers
/// the intent too) names it in a package of its own:
///
/// ```swift
/// struct SalesWidgetIntents: AppIntentsPackage {
///     static var includedPackages: [any AppIntentsPackage.Type] { [TandemWidgetsAppIntents.self] }
/// }
/// ```
@available(iOS 17.0, *)
public struct TandemWidgetsAppIntents: AppIntentsPackage {}
#endif
