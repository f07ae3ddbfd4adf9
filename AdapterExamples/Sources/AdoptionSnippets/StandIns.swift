// What an app around the examples has, as the examples name it (a "Sales" app). The package is
// only type-checked, never run: the stand-ins say what type each name has, not a value.
import Foundation
import SwiftUI
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets
import WidgetKit

/// The widget extension's provider, as an app makes it once per process.
public enum Widgets {
    public static var provider: DataWidgetProvider { standIn() }
}

/// The app's own links.
public enum SalesLinks {
    public static var pendingApprovals: URL { standIn() }
}

/// The app's storage, as the generated app's `AppServices` has it.
public struct SalesServices: Sendable {
    public var container: SharedContainer { standIn() }
    public var sharedSecrets: KeychainSecretStorage { standIn() }
    public func context(presenters: FlowPresenters) -> FlowContext { standIn() }
}

/// Where the app keeps the approvals it listed.
public struct ApprovalsStore: Sendable {
    public struct Pending: Sendable {
        public var action: WidgetRowAction
        public var title: String
    }
    public func pending() async throws -> [Pending] { standIn() }
}

/// The app's model, as the examples reach it.
@MainActor
public final class SalesAppModel: Sendable {
    public enum Route: Sendable { case approvals }
    public var route: Route?
    nonisolated public func unlockedSession() async throws -> FlowContext { standIn() }
}

/// The business widget of the examples' bundles.
public struct OrdersWidget: Widget {
    public init() {}
    public var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "orders", intent: DataWidgetIntent.self, provider: DataWidgetTimelineProvider(provider: Widgets.provider)) { entry in
            WidgetContentView(content: entry.content)
        }
    }
}

/// The approvals widget of the examples' bundles.
public typealias ApprovalsWidget = OrdersWidget

/// A value the type-check needs a type for; never run.
func standIn<T>() -> T { fatalError("a stand-in of the examples' package is never run") }
