#if canImport(WidgetKit) && os(iOS)
import WidgetKit
import TandemWidgetModel

/// What WidgetKit tells a provider, as the `WidgetContext` Tandem's providers take.
extension WidgetContext {
    /// The context of `context`: its family, its display size (the family's own when the system
    /// gives none, as it may for a placeholder) and whether it is a gallery preview.
    ///
    /// A family newer than this code is read as `systemMedium` (its rows and tap links), drawn
    /// at the size the system gives.
    public init(_ context: TimelineProviderContext) {
        let size = context.displaySize
        self.init(
            family: TandemWidgetModel.WidgetFamily(context.family) ?? .systemMedium,
            displaySize: size.width > 0 && size.height > 0 ? WidgetSize(width: Double(size.width), height: Double(size.height)) : nil,
            isPreview: context.isPreview)
    }
}
#endif
