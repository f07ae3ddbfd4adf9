// ItemActionIntent.swift's example: the widget extension's part, verbatim.
import AdoptionSnippets
import SwiftUI
import TandemWidgets
import WidgetKit

@main struct SalesWidgets: WidgetBundle {
    init() {
        DataWidgetCatalog.install(from: Widgets.provider)
        ItemActionIntent.install(from: Widgets.provider)
    }
    var body: some Widget { ApprovalsWidget() }
}
