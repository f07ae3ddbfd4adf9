/// What storing a batch of analytics events did.
struct EventIngestion: Sendable, Hashable {
    /// Events stored by this call.
    var accepted: Int
    /// Events whose id was already stored (or repeated within the batch), so not stored again.
    var duplicates: Int

    /// Creates an ingestion result.
    init(accepted: Int, duplicates: Int) {
        self.accepted = accepted
        self.duplicates = duplicates
    }
}
