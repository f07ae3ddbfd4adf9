import TandemWidgetModel

/// Draws `WidgetContent` without a UI toolkit: as SVG, to look at and snapshot-test every
/// state of every family in CI, and as a box for the terminal.
///
/// ```swift
/// let renderer = WidgetRenderer()
/// let svg = renderer.svg(content, family: .systemMedium)   // <svg … width="364" height="170" …>
/// print(renderer.terminalBox(content, family: .systemSmall))
/// ```
///
/// Both show the title, a state badge with a colour of its own per state, as many rows as the
/// family holds (`WidgetFamily/rowCapacity`), and the footer; text that does not fit ends in "…".
/// A row that can be acted on (`WidgetRow/action`) ends in its Approve and Reject buttons where
/// the family shows buttons (`WidgetFamily/showsActions`), and its last action's state
/// (`WidgetRow/actionState`) beside them or in their place; elsewhere the state only, where it
/// fits. A row without either draws as it did before rows had actions.
/// Output depends only on its input, so it can be compared byte for byte.
public struct WidgetRenderer: Sendable {
    /// A renderer.
    public init() {}

    /// `content` as a standalone SVG document (no XML declaration, so it can also be inlined in
    /// HTML) at `family`'s `WidgetFamily/displaySize`, with every text XML-escaped and no
    /// external assets.
    ///
    /// - Parameters:
    ///   - content: What to draw.
    ///   - family: The family whose size and layout to use.
    public func svg(_ content: WidgetContent, family: WidgetFamily) -> String {
        SVGCard(content: content, family: family).render()
    }

    /// `content` as lines of box-drawing characters, ending in a newline; the box is a fixed
    /// number of columns wide per family (24 for small, 44 for medium and large, 64 for extra
    /// large, 16, 26 and 40 for the accessories). Wide (CJK) characters count as one column.
    /// A row's buttons read `[Approve] [Reject]`; its action state ends the row in their place,
    /// or takes a line of its own below them (`↳ Changed — check again`).
    ///
    /// - Parameters:
    ///   - content: What to draw.
    ///   - family: The family whose width and row capacity to use.
    public func terminalBox(_ content: WidgetContent, family: WidgetFamily) -> String {
        TerminalBox(content: content, family: family).render()
    }
}
