// TandemWidgets' examples (Sources/TandemWidgets/Apple/), each verbatim in a body. The
// bundles with `@main` are in targets of their own.
import AppIntents
import Foundation
import SwiftUI
import TandemAuth
import TandemHost
import TandemPlatform
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets
import WidgetKit

// DataWidgetIntent.swift
struct DataWidgetIntentWidget: Widget {
    let provider = Widgets.provider
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "orders", intent: DataWidgetIntent.self,
                               provider: DataWidgetTimelineProvider(provider: provider)) { entry in
            WidgetContentView(content: entry.content)
        }
    }
}

// DataWidgetTimelineProvider.swift
struct DataWidgetTimelineProviderWidget: Widget {
    let provider = Widgets.provider
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: provider.kind, intent: DataWidgetIntent.self,
                               provider: DataWidgetTimelineProvider(provider: provider)) { entry in
            WidgetContentView(content: entry.content)
        }
    }
}

// ItemActionIntent.swift: the app's part (the widget's is ActionBundleSnippet).
func itemActionIntentInTheApp(services: SalesServices) {
    ItemActionIntent.install(
        container: services.container, credentials: SharedSecretCredentials(storage: services.sharedSecrets),
        executor: HostActionExecutor(context: { services.context(presenters: FlowPresenters()) }, reloader: WidgetCenterReloader()))
}

// SharedContainerWidgetPushHandler.swift
@available(iOS 26.0, *)
struct SalesWidgetPushHandler: SharedContainerWidgetPushHandler {
    static func destination() throws -> (container: SharedContainer, sharedSecrets: any SecretStorage) {
        (try AppGroupContainer.sharedContainer(groupIdentifier: "group.com.example.sales"),
         KeychainSecretStorage(service: "com.example.sales", accessGroup: "TEAMID.com.example.shared"))
    }
}

@available(iOS 26.0, *)
struct PushedOrdersWidget: Widget {
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "orders-live", intent: DataWidgetIntent.self, provider: DataWidgetTimelineProvider(provider: Widgets.provider)) { entry in
            WidgetContentView(content: entry.content)
        }
        .pushHandler(SalesWidgetPushHandler.self)
    }
}

struct SalesPushedWidgets: WidgetBundle {
    var body: some Widget {
        OrdersWidget()
        if #available(iOS 26.0, *) { PushedOrdersWidget() }
    }
}

// StaticWidgetTimelineProvider.swift
struct StaticWidgetTimelineProviderWidget: Widget {
    let provider = Widgets.provider
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "orders", provider: StaticWidgetTimelineProvider(
            provider: provider, configuration: DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders"))
        ) { entry in
            WidgetContentView(content: entry.content)
        }
    }
}

// TandemWidgetsAppIntents.swift
struct SalesWidgetIntents: AppIntentsPackage {
    static var includedPackages: [any AppIntentsPackage.Type] { [TandemWidgetsAppIntents.self] }
}

// WidgetContentView.swift
struct WidgetContentViewWidget: Widget {
    let timelineProvider = StaticWidgetTimelineProvider(
        provider: Widgets.provider, configuration: DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders"))
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "orders", provider: timelineProvider) { entry in
            WidgetContentView(content: entry.content)               // the family the system draws
        }
    }
}

struct WidgetContentViewPreview: View {
    var body: some View {
        WidgetContentView(content: DataWidgetProvider.sampleContent, family: .systemMedium)
    }
}

// WidgetFamily+WidgetKit.swift
struct WidgetFamilyWidget: Widget {
    let provider = StaticWidgetTimelineProvider(
        provider: Widgets.provider, configuration: DataWidgetConfiguration(destination: "sales", entitySet: "SalesOrders"))
    var body: some WidgetConfiguration {
        StaticConfiguration(kind: "orders", provider: provider) { entry in WidgetContentView(content: entry.base.content) }
            .supportedFamilies(TandemWidgetModel.WidgetFamily.allCases.map(\.widgetKitFamily))
    }
}

// WidgetKitEntry.swift
struct WidgetKitEntryWidget: Widget {
    let provider = DataWidgetTimelineProvider(provider: Widgets.provider)
    var body: some WidgetConfiguration {
        AppIntentConfiguration(kind: "orders", intent: DataWidgetIntent.self, provider: provider) { entry in
            WidgetContentView(content: entry.content)
        }
    }
}
