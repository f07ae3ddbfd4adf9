// PendingApprovalsControl.swift's example, verbatim.
import AdoptionSnippets
import Foundation
import SwiftUI
import TandemWidgets
import WidgetKit

@available(iOS 18.0, *)
struct SalesApprovalsControl: PendingApprovalsControl {
    static let kind = "com.example.sales.approvals"
    static let approvalsLink = SalesLinks.pendingApprovals   // the app's own URL
}

@main struct SalesWidgets: WidgetBundle {
    var body: some Widget {
        ApprovalsWidget()
        if #available(iOS 18.0, *) { SalesApprovalsControl() }
    }
}
