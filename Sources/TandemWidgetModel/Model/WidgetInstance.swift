
/// One widget placed by the user: its kind, family and configuration.
///
/// Two widgets with the same kind, family and configuration show the same thing, so the
/// `TimelineSimulator` treats them as one instance.
public struct WidgetInstance<Configuration: Codable & Hashable & Sendable>: Hashable, Sendable {
    /// The widget's kind, as the extension declares it ("orders").
    public var kind: String
    /// The family the user placed.
    public var family: WidgetFamily
    /// The user's choices for this widget.
    public var configuration: Configuration

    /// An instance of `kind` in `family` configured with `configuration`.
    public init(kind: String, family: WidgetFamily, configuration: Configuration) {
        self.kind = kind
        self.family = family
        self.configuration = configuration
    }
}
