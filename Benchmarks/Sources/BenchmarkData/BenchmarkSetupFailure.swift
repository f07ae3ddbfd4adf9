/// A benchmark whose setup found its store not holding what it wrote: its figures would mean
/// nothing, so it stops.
public struct BenchmarkSetupFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String

    public init(_ description: String) { self.description = description }
}
