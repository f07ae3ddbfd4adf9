/// What a provider knows about the widget it is producing entries for, mirroring
/// WidgetKit's `TimelineProviderContext`.
public struct WidgetContext: Codable, Hashable, Sendable {
    /// The widget's family.
    public var family: WidgetFamily
    /// The size the widget is drawn at, in points.
    public var displaySize: WidgetSize
    /// Whether the widget is shown in the widget gallery, where the provider should answer
    /// at once with sample data rather than the user's.
    public var isPreview: Bool

    /// A context for `family`; the size defaults to the family's ``WidgetFamily/displaySize``.
    public init(family: WidgetFamily, displaySize: WidgetSize? = nil, isPreview: Bool = false) {
        self.family = family
        self.displaySize = displaySize ?? family.displaySize
        self.isPreview = isPreview
    }
}
