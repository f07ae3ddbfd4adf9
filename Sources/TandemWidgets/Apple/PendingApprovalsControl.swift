// iOS 18 SDK or later only: controls (`ControlWidget`, `ControlWidgetButton`) and `OpenURLIntent`
// came with iOS 18. WidgetKit's module version is 402.200 in the iOS 17.5 SDK, 537.6 in 18.6 and
// 664.2 in 26.2; AppIntents' is 174.200 in 17.5 and 227.20 in 18.6. `_version: 450` and
// `_version: 200` compile this file out of every iOS 17 SDK and keep it in every iOS 18 one.
#if canImport(WidgetKit, _version: 450) && canImport(AppIntents, _version: 200) && os(iOS)
import AppIntents
import Foundation
import SwiftUI
import WidgetKit

/// A control in Control Center, on the Lock Screen or on the Action button (iOS 18) that opens
/// the app at the approvals waiting for the user's decision.
///
/// It decides nothing: a control can be pressed on a locked phone by whoever holds it, so it
/// only opens the app, where the user unlocks and decides. Its button runs the system's
/// `OpenURLIntent` with ``approvalsLink``, so none of the app's code runs in the extension.
///
/// WidgetKit makes a control with `init()`, so the app adopts the protocol with a type that says
/// where it leads, and lists that type in its widget bundle:
///
/// ```swift
/// @available(iOS 18.0, *)
/// struct SalesApprovalsControl: PendingApprovalsControl {
///     static let kind = "com.example.sales.approvals"
///     static let approvalsLink = SalesLinks.pendingApprovals   // the app's own URL
/// }
///
/// @main struct SalesWidgets: WidgetBundle {
///     var body: some Widget {
///         ApprovalsWidget()
///         if #available(iOS 18.0, *) { SalesApprovalsControl() }
///     }
/// }
/// ```
///
/// The link is the app's: `DeepLinkRouter` (TandemHost) routes only the forms it knows (a
/// `WidgetLink`, which names a widget family a control does not have), so the app either routes
/// its approvals link before the router or builds a `WidgetLink` of its approvals widget aimed at
/// the pending approvals (and counts the control's presses as that widget's taps).
@available(iOS 18.0, *)
@MainActor
public protocol PendingApprovalsControl: ControlWidget {
    /// The control's kind, unique among the app's widgets and controls.
    static var kind: String { get }
    /// The URL that opens the app at the pending approvals (a URL of the app's scheme or one of
    /// its universal links).
    static var approvalsLink: URL { get }
    /// What the control is called; "Approvals" by default.
    static var title: LocalizedStringResource { get }
    /// The SF Symbol it shows; `checkmark.seal` by default.
    static var systemImage: String { get }
}

@available(iOS 18.0, *)
extension PendingApprovalsControl {
    /// "Approvals".
    public static var title: LocalizedStringResource { "Approvals" }
    /// `checkmark.seal`.
    public static var systemImage: String { "checkmark.seal" }

    /// One button opening ``approvalsLink``.
    public var body: some ControlWidgetConfiguration {
        StaticControlConfiguration(kind: Self.kind) {
            ControlWidgetButton(action: OpenURLIntent(Self.approvalsLink)) {
                Label {
                    Text(Self.title)
                } icon: {
                    Image(systemName: Self.systemImage)
                }
            }
        }
        .displayName(Self.title)
        .description("Opens the approvals waiting for your decision.")
    }
}
#endif
