/// The answer kept for one idempotency key of one user of an app (table `action_decisions`):
/// what the first request with the key was answered, and the fingerprint of that request, so a
/// repeat gets the same answer and another request with the same key is refused.
struct StoredActionAnswer: Sendable, Equatable {
    /// The SHA-256 (hex) of the request it answered (``ItemActionRequest/fingerprint``).
    var fingerprint: String
    /// The status: `200` (decided), `409` (already decided) or `412` (the item had changed).
    var statusCode: Int
    /// The JSON body sent.
    var body: String
    /// The `ETag` header sent: the item's ETag after the decision, or its current one for `412`.
    var etag: String?
}
