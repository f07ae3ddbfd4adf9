import Crypto
import Foundation
import TandemPlatform

/// What a widget shows of an entity set, as a digest: the first rows a subscription names,
/// restricted to its fields. Two versions of a set with the same digest look the same on the
/// widget, so a change between them owes no push.
///
/// A field's value is compared as canonical JSON, which tells apart every difference the widget
/// could show (and some it could not, such as `1` and `1.0`: those cost a push, never a miss).
/// Rows of an actionable set are compared whole: any change moves the item's `ETag`, which the
/// widget's Approve and Reject buttons carry.
enum PushViewDigest {
    /// The digest of the first `limit` of `rows` (JSON objects), restricted to `fields` (all
    /// when empty, or when `wholeRows`).
    static func digest(of rows: [String], limit: Int, fields: [String], wholeRows: Bool) -> String {
        var hasher = SHA256()
        let shown = rows.prefix(max(0, limit))
        feed("\(shown.count)", into: &hasher)
        let sortedFields = fields.sorted()
        for row in shown {
            guard !wholeRows, !sortedFields.isEmpty,
                  let object = try? JSONSerialization.jsonObject(with: Data(row.utf8)) as? [String: Any]
            else {
                feed(row, into: &hasher)
                continue
            }
            for field in sortedFields {
                feed(field, into: &hasher)
                feed(object[field].flatMap(canonical) ?? "-", into: &hasher)
            }
        }
        return Hex.encode(hasher.finalize().prefix(16))
    }

    /// `fields` as stored: a JSON array, sorted.
    static func encode(fields: [String]) -> String {
        guard let data = try? JSONEncoder().encode(fields.sorted()), let text = String(data: data, encoding: .utf8) else { return "[]" }
        return text
    }

    /// The fields stored as `text` (none when it does not decode).
    static func decode(fields text: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(text.utf8))) ?? []
    }

    private static func canonical(_ value: Any) -> String? {
        guard let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed]) else { return nil }
        return String(data: data, encoding: .utf8)
    }

    private static func feed(_ text: String, into hasher: inout SHA256) {
        let bytes = Data(text.utf8)
        hasher.update(data: Data("\(bytes.count):".utf8))
        hasher.update(data: bytes)
    }
}
