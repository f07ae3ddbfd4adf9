// DataWidgetCatalog.swift's example, verbatim.
import AdoptionSnippets
import SwiftUI
import TandemWidgets
import WidgetKit

@main struct SalesWidgets: WidgetBundle {
    init() { DataWidgetCatalog.install(from: Widgets.provider) }
    var body: some Widget { OrdersWidget() }
}
