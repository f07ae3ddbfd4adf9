/// How one entity set of a customer's backend becomes widget rows: the protocol, where a page
/// keeps its items (REST only; OData fixes it), which item fields fill which row fields, and how
/// a REST page says where the next one is.
///
/// ```swift
/// let orders = EntitySetMapping(
///     protocolKind: .odataV2,
///     id: try FieldMapping("/SalesOrderID", type: .edmString),
///     title: try FieldMapping("/CustomerName"),
///     amount: try FieldMapping("/GrossAmount", type: .edmDecimal),
///     currency: try FieldMapping("/CurrencyCode"),
///     date: try FieldMapping("/CreatedAt", type: .edmDateTime))
/// try orders.validate()
/// ```
public struct EntitySetMapping: Sendable, Hashable, Codable {
    /// The backend's protocol.
    public var protocolKind: BackendProtocolKind
    /// REST: where the items array is in the page (`""`: the page is the array). OData: nil, the
    /// protocol fixes it (`/value` in V4; `/d/results` or a bare `/d` array in V2).
    public var items: JSONPointer?
    /// The row's id: required in every item.
    public var id: FieldMapping
    /// The row's title.
    public var title: FieldMapping?
    /// The row's second line.
    public var subtitle: FieldMapping?
    /// A value shown beside the title.
    public var value: FieldMapping?
    /// A money amount, kept as exact decimal text.
    public var amount: FieldMapping?
    /// The amount's currency code.
    public var currency: FieldMapping?
    /// A status text.
    public var status: FieldMapping?
    /// A date or date and time, shown in UTC.
    public var date: FieldMapping?
    /// REST: where the next page is said to be; nil, a single page. OData: nil, the protocol says it.
    public var paging: RestPaging?
    /// REST: each item's ETag, relative to the item. OData: nil, the protocol says it.
    public var itemETag: JSONPointer?

    /// A mapping; `validate()` says whether its parts fit together.
    public init(
        protocolKind: BackendProtocolKind, items: JSONPointer? = nil, id: FieldMapping,
        title: FieldMapping? = nil, subtitle: FieldMapping? = nil, value: FieldMapping? = nil,
        amount: FieldMapping? = nil, currency: FieldMapping? = nil, status: FieldMapping? = nil,
        date: FieldMapping? = nil, paging: RestPaging? = nil, itemETag: JSONPointer? = nil
    ) {
        self.protocolKind = protocolKind
        self.items = items
        self.id = id
        self.title = title
        self.subtitle = subtitle
        self.value = value
        self.amount = amount
        self.currency = currency
        self.status = status
        self.date = date
        self.paging = paging
        self.itemETag = itemETag
    }

    /// The mapped fields with the names the rules use, id first.
    var namedFields: [(name: String, field: FieldMapping)] {
        [("id", id as FieldMapping?), ("title", title), ("subtitle", subtitle), ("value", value),
         ("amount", amount), ("currency", currency), ("status", status), ("date", date)]
            .compactMap { name, field in field.map { (name, $0) } }
    }

    private static let idTypes: Set<BackendFieldType> = [.edmString, .edmInt32, .edmInt64, .edmGuid, .string, .number]
    private static let amountTypes: Set<BackendFieldType> = [.edmDecimal, .edmDouble, .edmInt32, .edmInt64, .number, .string]
    private static let currencyTypes: Set<BackendFieldType> = [.edmString, .string]
    private static let dateTypes: Set<BackendFieldType> = [.edmDate, .edmDateTimeOffset, .edmDateTime, .iso8601]

    /// Refuses a mapping whose parts do not fit: an id (or any field) pointing at the whole item,
    /// a REST mapping without an items pointer, an OData mapping that moves what the protocol
    /// fixes, a type the protocol does not send, or a type that cannot fill its field (a boolean
    /// amount, a GUID date). Malformed pointers cannot reach a mapping: `JSONPointer` refuses them.
    public func validate() throws(BackendMappingError) {
        if protocolKind.isOData {
            guard items == nil else {
                throw .invalidMapping("an OData page keeps its items where the protocol says; leave items empty")
            }
            guard paging == nil else {
                throw .invalidMapping("an OData page says where its next page is; leave paging empty")
            }
            guard itemETag == nil else {
                throw .invalidMapping("an OData item says its ETag itself; leave itemETag empty")
            }
        } else {
            guard items != nil else {
                throw .invalidMapping("a REST mapping says where the items are (\"\" when the page is the array)")
            }
            switch paging {
            case .cursor(let pointer), .nextURL(let pointer):
                guard !pointer.isDocument else {
                    throw .invalidMapping("the next-page pointer names a member of the page, not the page itself")
                }
            case .linkHeader, nil:
                break
            }
            if let itemETag, itemETag.isDocument {
                throw .invalidMapping("the ETag pointer names a member of the item, not the item itself")
            }
        }
        for (name, field) in namedFields {
            guard !field.pointer.isDocument else {
                throw .invalidMapping("the \(name) pointer names a member of the item, not the item itself")
            }
            guard let type = field.type else { continue }
            guard type.isDeclarable(for: protocolKind) else {
                throw .invalidMapping("\(protocolKind.rawValue) backends do not send \(type.rawValue) (field \(name))")
            }
            let allowed: Set<BackendFieldType>? =
                switch name {
                case "id": Self.idTypes
                case "amount": Self.amountTypes
                case "currency": Self.currencyTypes
                case "date": Self.dateTypes
                default: nil
                }
            if let allowed, !allowed.contains(type) {
                throw .invalidMapping("a \(type.rawValue) cannot fill the \(name) field")
            }
        }
    }
}
