#if canImport(SwiftUI) && canImport(WidgetKit) && os(iOS)
import SwiftUI
import WidgetKit
import TandemProtocol
import TandemWidgetModel
// `Button(intent:)` is the SwiftUI–AppIntents overlay's (iOS 17 SDK): see DataWidgetIntent.swift.
#if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163)
import AppIntents
#endif

/// A row's actions: Approve and Reject buttons on an actionable row, in the families that have
/// room for them (`WidgetFamily/showsActions`), and the row's last action state in words.
///
/// Each button runs an ``ItemActionIntent`` in the widget's extension (`Button(intent:)`, iOS
/// 17): it writes a request for the host and WidgetKit reloads the widget, whose row then says
/// "Approving…" until the host's result comes back. On iOS 16 the buttons are compiled out or
/// skipped, and the row's tap opens the app as before.
extension WidgetContentView {
    /// The trailing part of `row`: its state's label and, where the family shows actions, the
    /// buttons it offers now (`WidgetRow/visibleActions`); nothing for a read-only row.
    @ViewBuilder
    func rowActions(_ row: WidgetRow) -> some View {
        if family.showsActions {
            HStack(spacing: 4) {
                if let state = row.actionState {
                    actionStateLabel(state)
                }
                if let target = row.action {
                    actionButtons(row.visibleActions, on: target)
                }
            }
            .privacySensitive(rowsArePrivate)
        }
    }

    /// `state`'s label ("Approving…", "Approved", "Changed — check again"), tinted by what it
    /// asks of the user.
    func actionStateLabel(_ state: WidgetActionState) -> some View {
        Text(state.label)
            .font(.system(size: 11, weight: .medium))
            .foregroundColor(actionStateColor(state))
            .lineLimit(1)
            .minimumScaleFactor(0.8)
    }

    private func actionStateColor(_ state: WidgetActionState) -> Color {
        switch state {
        case .pending, .waiting, .done: .secondary
        case .needsApp: .accentColor
        case .conflict, .expired, .refused: .orange
        }
    }

    /// A button per action in `actions`, on iOS 17 and later.
    @ViewBuilder
    private func actionButtons(_ actions: [ItemAction], on target: WidgetRowAction) -> some View {
        #if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163)
        if #available(iOS 17.0, *), !actions.isEmpty {
            ForEach(actions, id: \.self) { action in
                actionButton(action, on: target)
            }
        }
        #endif
    }

    #if canImport(WidgetKit, _version: 378) && canImport(AppIntents, _version: 163)
    /// The button of `action`: an icon whose accessibility label names the action and the item
    /// ("Approve PR-1003", "Approve PR-1003 in the app" above the step-up threshold).
    @available(iOS 17.0, *)
    private func actionButton(_ action: ItemAction, on target: WidgetRowAction) -> some View {
        let approve = action == .approve
        let name = approve ? "Approve" : "Reject"
        return Button(intent: ItemActionIntent(action, on: target, family: family)) {
            Image(systemName: approve ? "checkmark.circle.fill" : "xmark.circle.fill")
                .font(.system(size: 17))
                .foregroundColor(approve ? .green : .red)
                .widgetAccentable()
        }
        .buttonStyle(.plain)
        .accessibilityLabel(Text(target.needsApp ? "\(name) \(target.item) in the app" : "\(name) \(target.item)"))
    }
    #endif
}
#endif
