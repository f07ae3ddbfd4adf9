#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// One key figure as the host writes it for a widget (``KeyFigureKey``): its value as text, and
/// whether the server marked the page it came from stale (its backend down).
///
/// ```swift
/// let figure = try KeyFigure(page: body, field: nil)   // {"items":[…],"total":12,…} → "12"
/// ```
public struct KeyFigure: Codable, Hashable, Sendable {
    /// The value: a count, or a field's text as the page holds it.
    public var value: String
    /// The page was the last one read from a backend that is down.
    public var stale: Bool

    /// A figure.
    public init(value: String, stale: Bool = false) {
        self.value = value
        self.stale = stale
    }

    /// The figure in an entity-set page (`EntitySetPageDocument`): `field` of its first row, or
    /// its `total` when `field` is nil.
    ///
    /// - Throws: ``DataWidgetError/undecodablePage(reason:)`` for a page that is not one, has no
    ///   total, has no first row, or whose first row lacks `field` or holds an object there.
    public init(page: Data, field: String?) throws(DataWidgetError) {
        let decoded: EntitySetPageDocument.Page<[String: JSONValue]>
        do {
            decoded = try JSONDecoder().decode(EntitySetPageDocument.Page<[String: JSONValue]>.self, from: page)
        } catch {
            throw .undecodablePage(reason: "not an entity-set page")
        }
        stale = decoded.stale ?? false
        guard let field else {
            guard let total = decoded.total else { throw .undecodablePage(reason: "the page does not say how many rows the set holds") }
            value = String(total)
            return
        }
        switch decoded.items.first?[field] {
        case .string(let text)?: value = text
        case .number(let number)?: value = number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .bool(let flag)?: value = flag ? "true" : "false"
        default: throw .undecodablePage(reason: "the first row has no value for \(field.debugDescription)")
        }
    }
}
