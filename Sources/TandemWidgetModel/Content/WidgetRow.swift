#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// One line of business data in a widget: a key and its value, and for an item that can be
/// acted on, its actions and where the last one stands.
public struct WidgetRow: Codable, Hashable, Sendable {
    /// What the row is about, shown on the left ("Open orders").
    public var key: String
    /// Its value, shown on the right ("12").
    public var value: String
    /// The name of an image (an SF Symbol or asset on Apple) shown before the key, if any.
    /// Renderers without the image draw nothing for it.
    public var imageName: String?
    /// Where tapping this row leads (built with ``WidgetLink``); `nil` to use the widget's primary link.
    public var link: URL?
    /// The item behind the row when it can be acted on (an approval), with its actions; `nil`
    /// for a read-only row.
    public var action: WidgetRowAction?
    /// Where the row's last action stands, if the user acted on it recently; `nil` otherwise.
    public var actionState: WidgetActionState?

    /// A row showing `value` for `key`, with an optional image and tap target.
    public init(
        key: String, value: String, imageName: String? = nil, link: URL? = nil, action: WidgetRowAction? = nil,
        actionState: WidgetActionState? = nil
    ) {
        self.key = key
        self.value = value
        self.imageName = imageName
        self.link = link
        self.action = action
        self.actionState = actionState
    }

    /// The buttons the row shows now: its item's actions, unless its last action is pending or done.
    public var visibleActions: [ItemAction] {
        guard let action, actionState?.offersActions ?? true else { return [] }
        return action.actions
    }
}
