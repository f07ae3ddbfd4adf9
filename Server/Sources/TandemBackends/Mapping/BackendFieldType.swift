/// The declared type of a mapped field, which says how its JSON value is read: the OData EDM
/// primitive types for OData backends, four plain types for REST backends.
public enum BackendFieldType: String, Sendable, Hashable, Codable, CaseIterable {
    /// `Edm.String`: a JSON string.
    case edmString = "Edm.String"
    /// `Edm.Int32`: a number, or a string of digits.
    case edmInt32 = "Edm.Int32"
    /// `Edm.Int64`: a number, or a string of digits (V2, and V4 with `IEEE754Compatible=true`).
    case edmInt64 = "Edm.Int64"
    /// `Edm.Decimal`: a number, or a decimal in a string (V2, and V4 with `IEEE754Compatible=true`).
    case edmDecimal = "Edm.Decimal"
    /// `Edm.Double`: a number, or a number in a string; read as its decimal text, never as a `Double`.
    case edmDouble = "Edm.Double"
    /// `Edm.Boolean`: `true` or `false`.
    case edmBoolean = "Edm.Boolean"
    /// `Edm.Date` (V4): `YYYY-MM-DD`.
    case edmDate = "Edm.Date"
    /// `Edm.DateTimeOffset`: ISO 8601 with an offset (V4), or `/Date(ms±offset)/` (V2).
    case edmDateTimeOffset = "Edm.DateTimeOffset"
    /// `Edm.DateTime` (V2): `/Date(ms)/`, or ISO 8601 without a zone, read as UTC.
    case edmDateTime = "Edm.DateTime"
    /// `Edm.Guid`: a string `8-4-4-4-12` hexadecimal digits.
    case edmGuid = "Edm.Guid"
    /// REST: a JSON string.
    case string
    /// REST: a JSON number, kept as its literal text.
    case number
    /// REST: `true` or `false`.
    case boolean
    /// REST: an ISO 8601 date (`YYYY-MM-DD`) or date and time with a zone.
    case iso8601

    /// Whether this is an OData EDM type (as opposed to a REST type).
    public var isOData: Bool {
        switch self {
        case .string, .number, .boolean, .iso8601: false
        default: true
        }
    }

    /// Whether `protocolKind` backends send values of this type.
    public func isDeclarable(for protocolKind: BackendProtocolKind) -> Bool {
        switch protocolKind {
        case .rest: !isOData
        case .odataV4: isOData && self != .edmDateTime
        case .odataV2: isOData && self != .edmDate
        }
    }
}
