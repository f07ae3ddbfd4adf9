import Hummingbird

/// The paging parameters of an entity-set request: `limit` (1…``maximumLimit``, default
/// ``defaultLimit``) and `offset` (0…``maximumOffset``, default 0), each at most once.
struct PageRequest: Sendable, Hashable {
    /// Rows per page when `limit` is absent.
    static let defaultLimit = 50
    /// The largest `limit` accepted.
    static let maximumLimit = 500
    /// The largest `offset` accepted.
    static let maximumOffset = 1_000_000_000

    /// The most rows to return.
    let limit: Int
    /// The position of the first row.
    let offset: Int

    /// A page request with explicit values.
    init(limit: Int, offset: Int) {
        self.limit = limit
        self.offset = offset
    }

    /// Reads `limit` and `offset` from a query string.
    ///
    /// - Throws: ``HTTPError`` `invalid_request` (400) for a repeated, non-integer or
    ///   out-of-range value.
    init(query: Parameters) throws(HTTPError) {
        limit = try Self.integer("limit", in: query, default: Self.defaultLimit, range: 1...Self.maximumLimit)
        offset = try Self.integer("offset", in: query, default: 0, range: 0...Self.maximumOffset)
    }

    private static func integer(_ name: String, in query: Parameters, default value: Int, range: ClosedRange<Int>) throws(HTTPError) -> Int {
        let values = query.getAll(name)
        guard values.count <= 1 else { throw HTTPError(.invalidRequest, "\(name) is repeated") }
        guard let text = values.first else { return value }
        guard let number = Int(text), range.contains(number) else {
            throw HTTPError(.invalidRequest, "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
