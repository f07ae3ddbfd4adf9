/// What storing a batch of analytics events did.
public struct EventIngestion: Sendable, Hashable {
    /// Events stored by this call.
    public var accepted: Int
    /// Events whose id was already stored (or repeated within the batch), so not stored again.
    public var duplicates: Int

    /// Creates an ingestion result.
    public init(accepted: Int, duplicates: Int) {
        self.accepted = accepted
        self.duplicates = duplicates
    }
}
