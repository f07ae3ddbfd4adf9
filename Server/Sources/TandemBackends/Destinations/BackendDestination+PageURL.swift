import Foundation

extension BackendDestination {
    /// The URL of one page of `entitySet`: the base URL, the set's path, its query, and the
    /// paging this server asks for.
    ///
    /// OData pages are addressed by position: `$top` is `limit`, `$skip` is `offset` (left out
    /// when 0), and the collection's size is asked for (`$count=true` in V4,
    /// `$inlinecount=allpages` in V2). A REST set is read from its first page only, as its
    /// backend pages it (its query may set a page size); `offset` must be 0.
    ///
    /// ```swift
    /// let url = try erp.pageURL(of: approvals, limit: 20, offset: 0)
    /// // https://erp.example.com/odata/ApprovalSet?$filter=Status%20eq%20'Open'&$top=20&$inlinecount=allpages
    /// ```
    ///
    /// - Throws: ``BackendDestinationError/offsetNotSupported(entitySet:)`` for a REST set and an
    ///   offset past 0; ``BackendDestinationError/invalidBaseURL(_:)`` when the parts do not make
    ///   a URL.
    public func pageURL(of entitySet: BackendEntitySet, limit: Int, offset: Int) throws(BackendDestinationError) -> URL {
        var query = entitySet.query.map { ($0.name, $0.value) }
        switch protocolKind {
        case .odataV4, .odataV2:
            query.append(("$top", String(limit)))
            if offset > 0 { query.append(("$skip", String(offset))) }
            query.append(protocolKind == .odataV4 ? ("$count", "true") : ("$inlinecount", "allpages"))
        case .rest:
            guard offset == 0 else { throw .offsetNotSupported(entitySet: entitySet.name) }
        }
        var text = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        text += entitySet.path
        if !query.isEmpty {
            text += "?" + query.map { Self.encoded($0.0) + "=" + Self.encoded($0.1) }.joined(separator: "&")
        }
        guard let url = URL(string: text) else { throw .invalidBaseURL("the base URL and the set's path do not make a URL") }
        return url
    }

    /// `text` percent-encoded for a query component: unreserved characters and OData's
    /// punctuation (`$ ' ( ) , : * / @ !`) as they are, everything else (space, `+`, `&`, `=`,
    /// `#`, `%`, non-ASCII) as UTF-8 `%XX`.
    static func encoded(_ text: String) -> String {
        encoded(text, keeping: keptPunctuation)
    }

    /// `text` with every byte but ASCII letters, digits, `-._~` and `kept` as UTF-8 `%XX`.
    static func encoded(_ text: String, keeping kept: Set<UInt8>) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where kept.contains(byte):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0x0F, radix: 16, uppercase: true)
            }
        }
        return result
    }

    private static let keptPunctuation = Set("$'(),:*/@!".utf8)
}
