/// Turns one backend response page (body and headers) into widget rows by an `EntitySetMapping`.
public enum BackendPageMapper {
    /// The largest body read: 8 MiB.
    public static let maximumBodySize = 8 * 1024 * 1024

    private static let v4Items = JSONPointer(tokens: ["value"])
    private static let v4NextLink = JSONPointer(tokens: ["@odata.nextLink"])
    private static let v4ETag = JSONPointer(tokens: ["@odata.etag"])
    private static let v4Address = JSONPointer(tokens: ["@odata.id"])
    private static let v4Count = JSONPointer(tokens: ["@odata.count"])
    private static let v2Count = JSONPointer(tokens: ["d", "__count"])
    private static let v2Document = JSONPointer(tokens: ["d"])
    private static let v2Items = JSONPointer(tokens: ["d", "results"])
    private static let v2Next = JSONPointer(tokens: ["d", "__next"])
    private static let v2ETag = JSONPointer(tokens: ["__metadata", "etag"])
    private static let v2Address = JSONPointer(tokens: ["__metadata", "uri"])

    /// Maps the first `limit` items of the page in `body` to rows, and reads where the next page
    /// is (kept even when items were left out for the limit) and the page's `ETag` header.
    /// Items past the limit are not read.
    ///
    /// ```swift
    /// let page = try BackendPageMapper.map(
    ///     body: body, headers: [(name: "ETag", value: "\"33a64df5\"")], mapping: orders, limit: 20)
    /// let items = "{\"items\":[" + page.rows.map { $0.json() }.joined(separator: ",") + "]}"
    /// ```
    public static func map(
        body: [UInt8], headers: [(name: String, value: String)], mapping: EntitySetMapping, limit: Int
    ) throws(BackendMappingError) -> BackendPage {
        guard limit >= 1 else { throw .invalidLimit(limit) }
        try mapping.validate()
        guard body.count <= maximumBodySize else { throw .bodyTooLarge(bytes: body.count, limit: maximumBodySize) }
        let document = try BackendJSON.parse(body)

        let items = try items(in: document, mapping: mapping)
        var rows: [BackendRow] = []
        rows.reserveCapacity(min(limit, items.count))
        for (index, item) in items.prefix(limit).enumerated() {
            rows.append(try row(item, index: index, mapping: mapping))
        }
        return BackendPage(
            rows: rows, next: try next(in: document, headers: headers, mapping: mapping),
            etag: headerValues("ETag", in: headers).first, count: try count(in: document, protocolKind: mapping.protocolKind))
    }

    /// The collection's size where an OData page says it: a JSON number in V4, a string of
    /// digits in V2 (SAP Gateway writes `"__count":"42"`). REST pages have no standard place.
    private static func count(in document: BackendJSON, protocolKind: BackendProtocolKind) throws(BackendMappingError) -> Int? {
        let pointer: JSONPointer
        switch protocolKind {
        case .rest: return nil
        case .odataV4: pointer = v4Count
        case .odataV2: pointer = v2Count
        }
        switch pointer.resolve(in: document) {
        case nil, .null?:
            return nil
        case .number(let text)?, .string(let text)?:
            guard let count = Int(text), count >= 0 else {
                throw .invalidPageField(pointer: pointer.description, expected: "a count of items")
            }
            return count
        default:
            throw .invalidPageField(pointer: pointer.description, expected: "a count of items")
        }
    }

    private static func items(in document: BackendJSON, mapping: EntitySetMapping) throws(BackendMappingError) -> [BackendJSON] {
        let pointer: JSONPointer
        switch mapping.protocolKind {
        case .rest:
            pointer = mapping.items ?? .document
        case .odataV4:
            pointer = v4Items
        case .odataV2:
            if case .array(let items)? = v2Document.resolve(in: document) { return items }
            pointer = v2Items
        }
        switch pointer.resolve(in: document) {
        case .array(let items)?: return items
        case nil: throw .itemsNotFound(pointer: pointer.description)
        default: throw .itemsNotAnArray(pointer: pointer.description)
        }
    }

    private static func row(_ item: BackendJSON, index: Int, mapping: EntitySetMapping) throws(BackendMappingError) -> BackendRow {
        switch item {
        case .object, .array: break
        default: throw .itemNotAnObject(index: index)
        }
        let reader = FieldReader(item: item, index: index, protocolKind: mapping.protocolKind)
        var row = BackendRow(id: try reader.id(mapping.id))
        row.title = try reader.text(mapping.title)
        row.subtitle = try reader.text(mapping.subtitle)
        row.value = try reader.text(mapping.value)
        row.status = try reader.text(mapping.status)
        row.currency = try reader.text(mapping.currency)
        row.amount = try reader.amount(mapping.amount)
        row.date = try reader.date(mapping.date)
        switch mapping.protocolKind {
        case .rest:
            if let pointer = mapping.itemETag { row.etag = try reader.annotation(at: pointer) }
        case .odataV4:
            row.etag = try reader.annotation(at: v4ETag)
            row.address = try reader.annotation(at: v4Address)
        case .odataV2:
            row.etag = try reader.annotation(at: v2ETag)
            row.address = try reader.annotation(at: v2Address)
        }
        return row
    }

    private static func next(
        in document: BackendJSON, headers: [(name: String, value: String)], mapping: EntitySetMapping
    ) throws(BackendMappingError) -> BackendNextPage? {
        switch mapping.protocolKind {
        case .odataV4:
            return try pageString(at: v4NextLink, in: document, expected: "next link string").map(BackendNextPage.url)
        case .odataV2:
            return try pageString(at: v2Next, in: document, expected: "next link string").map(BackendNextPage.url)
        case .rest:
            switch mapping.paging {
            case nil:
                return nil
            case .linkHeader:
                return LinkHeader.nextTarget(in: headerValues("Link", in: headers)).map(BackendNextPage.url)
            case .nextURL(let pointer):
                return try pageString(at: pointer, in: document, expected: "next URL string").map(BackendNextPage.url)
            case .cursor(let pointer):
                if case .number(let text)? = pointer.resolve(in: document) { return .cursor(text) }
                return try pageString(at: pointer, in: document, expected: "cursor string or number").map(BackendNextPage.cursor)
            }
        }
    }

    private static func pageString(
        at pointer: JSONPointer, in document: BackendJSON, expected: String
    ) throws(BackendMappingError) -> String? {
        switch pointer.resolve(in: document) {
        case nil, .null?: return nil
        case .string(let text)?: return text.isEmpty ? nil : text
        default: throw .invalidPageField(pointer: pointer.description, expected: expected)
        }
    }

    private static func headerValues(_ name: String, in headers: [(name: String, value: String)]) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map { trimmed($0.value) }
    }

    private static func trimmed(_ value: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        return String(value.drop(while: isSpace).reversed().drop(while: isSpace).reversed())
    }
}
