/// A widget's size in points.
///
/// A portable stand-in for `CGSize`, so the model needs no graphics framework.
public struct WidgetSize: Codable, Hashable, Sendable {
    /// The width in points.
    public var width: Double
    /// The height in points.
    public var height: Double

    /// A size of `width` × `height` points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
