#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One page of an entity set's rows, as `GET /v1/destinations/{destination}/{entitySet}` sends
/// it: `{"items":[{…}],"limit":L,"next":"<path>"|null,"offset":O,"total":N}`, keys sorted.
///
/// A page read from a customer's backend may not know its `total` (`null`), and when the
/// backend is down the server sends the user's last page again with `"stale":true` and
/// `"fetchedAt"`, the time it was read.
///
/// The server writes it with ``json(rows:limit:next:offset:total:)``, splicing in rows that are
/// already JSON (it never decodes them); a client reads it as a ``Page`` of whatever row type
/// it wants.
///
/// ```swift
/// let body = EntitySetPageDocument.json(rows: ["{\"ID\":1}"], limit: 20, next: nil, offset: 0, total: 1)
/// let page = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: JSONValue]>.self, from: Data(body))
/// ```
public enum EntitySetPageDocument {
    /// A page as a client reads it; every field but `items` is optional, so a page from
    /// another server that leaves them out still reads.
    public struct Page<Item: Decodable & Sendable>: Decodable, Sendable {
        /// The rows.
        public var items: [Item]
        /// The most rows a page holds.
        public var limit: Int?
        /// The path of the next page, or `nil` on the last one.
        public var next: String?
        /// Where this page starts.
        public var offset: Int?
        /// How many rows the entity set holds.
        public var total: Int?
        /// The backend could not be reached: these are the last rows read, at ``fetchedAt``.
        public var stale: Bool?
        /// When a stale page was read from its backend (ISO 8601, UTC).
        public var fetchedAt: String?
    }

    /// The page's bytes: `rows` (each a JSON object, spliced in as it is) and the paging fields.
    ///
    /// - Parameters:
    ///   - rows: The page's rows, each one JSON object.
    ///   - limit: The most rows a page holds.
    ///   - next: The next page's path (see `APIPath`), or `nil` on the last page.
    ///   - offset: Where this page starts.
    ///   - total: How many rows the entity set holds.
    public static func json(rows: [String], limit: Int, next: String?, offset: Int, total: Int) -> [UInt8] {
        json(rows: rows, limit: limit, next: next, offset: offset, total: Optional(total))
    }

    /// The page's bytes, for a page whose `total` may be unknown (`null`), and for the last page
    /// read from a backend that is down: `stale` with the ISO 8601 time it was read,
    /// `fetchedAt`.
    public static func json(
        rows: [String], limit: Int, next: String?, offset: Int, total: Int?, staleSince fetchedAt: String? = nil
    ) -> [UInt8] {
        var body = fetchedAt.map { "{\"fetchedAt\":" + quoted($0) + ",\"items\":[" } ?? "{\"items\":["
        body.reserveCapacity(rows.reduce(128) { $0 + $1.utf8.count + 1 })
        for (index, row) in rows.enumerated() {
            if index > 0 { body += "," }
            body += row
        }
        body += "],\"limit\":\(limit),\"next\":\(next.map(quoted) ?? "null"),\"offset\":\(offset)"
        if fetchedAt != nil { body += ",\"stale\":true" }
        body += ",\"total\":\(total.map(String.init) ?? "null")}"
        return Array(body.utf8)
    }

    /// `text` as a JSON string. A page's `next` is an `APIPath` (percent-encoded, nothing to
    /// escape), so it is quoted as it is; anything else is written by `JSONEncoder`.
    private static func quoted(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }) {
            return "\"" + text + "\""
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding a string cannot fail; `null` would still be a valid page.
        return (try? encoder.encode(text)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }
}
