import TandemSharedContainer

/// The host's data sources, one per request kind: which ``DataSource`` answers a request. A
/// request of a kind no source answers is answered once as unsupported
/// (``UnsupportedDataKind``) instead of being tried again at every run.
///
/// ```swift
/// let sources = DataSources.standard              // entity-set pages and key figures
/// let custom = DataSources.standard.adding(WeatherSource())
/// ```
public struct DataSources: Sendable {
    private let byKind: [String: any DataSource]

    /// The sources Tandem comes with: ``EntitySetSource`` and ``KeyFigureSource``.
    public static let standard = DataSources([EntitySetSource(), KeyFigureSource()])

    /// The sources `sources`; of two with the same kind, the later one answers.
    public init(_ sources: [any DataSource]) {
        var byKind: [String: any DataSource] = [:]
        for source in sources { byKind[source.kind] = source }
        self.byKind = byKind
    }

    /// These sources and `source` (which replaces one of its kind).
    public func adding(_ source: any DataSource) -> DataSources {
        DataSources(Array(byKind.values) + [source])
    }

    /// The source that answers `kind`, or nil.
    public func source(for kind: String) -> (any DataSource)? {
        byKind[kind]
    }

    /// The kinds answered, sorted.
    public var kinds: [String] { byKind.keys.sorted() }
}
