import TandemWidgetModel

/// A widget extension whose process iOS discards between reloads: every call launches a new
/// provider, so whatever the last one kept in memory is gone and only what it wrote to the
/// shared container remains.
public struct DiscardedProcessProvider<Base: WidgetProvider>: WidgetProvider {
    /// The entries of the provider launched.
    public typealias Entry = Base.Entry
    /// The configuration of the provider launched.
    public typealias Configuration = Base.Configuration

    private let launch: @Sendable () -> Base

    /// A provider that calls `launch` for a new process each time it is asked.
    public init(launch: @escaping @Sendable () -> Base) {
        self.launch = launch
    }

    public func placeholder(in context: WidgetContext) -> Base.Entry {
        launch().placeholder(in: context)
    }

    public func snapshot(for configuration: Base.Configuration, in context: WidgetContext) async -> Base.Entry {
        await launch().snapshot(for: configuration, in: context)
    }

    public func timeline(for configuration: Base.Configuration, in context: WidgetContext) async -> Timeline<Base.Entry> {
        await launch().timeline(for: configuration, in: context)
    }
}
