import Foundation
import Testing
@testable import TandemBackends

/// The URL of one page of a backend's entity set: the base, the path, the set's query encoded
/// for a query component, and the paging the server asks for.
@Suite struct BackendPageURLTests {
    static func destination(_ kind: BackendProtocolKind, base: String = "https://erp.example.com/odata") -> (BackendDestination, BackendEntitySet) {
        let set = BackendEntitySet(
            name: "Orders", path: "SalesOrderSet", query: [BackendQueryItem(name: "$filter", value: "Status eq 'Open' and Net gt 1+1&x=y")],
            mapping: EntitySetMapping(
                protocolKind: kind, items: kind == .rest ? JSONPointer(tokens: ["results"]) : nil, id: FieldMapping(pointer: JSONPointer(tokens: ["ID"]))))
        return (BackendDestination(name: "erp", title: "ERP", protocolKind: kind, baseURL: base, authentication: .none, entitySets: [set]), set)
    }

    @Test func odataV4AsksForAPositionAndTheCount() throws {
        let (erp, orders) = Self.destination(.odataV4)
        #expect(try erp.pageURL(of: orders, limit: 20, offset: 0).absoluteString
            == "https://erp.example.com/odata/SalesOrderSet?$filter=Status%20eq%20'Open'%20and%20Net%20gt%201%2B1%26x%3Dy&$top=20&$count=true")
        #expect(try erp.pageURL(of: orders, limit: 20, offset: 40).absoluteString.hasSuffix("&$top=20&$skip=40&$count=true"))
    }

    @Test func odataV2AsksForTheInlineCount() throws {
        let (erp, orders) = Self.destination(.odataV2, base: "https://erp.example.com/sap/opu/odata/sap/ZSRV/")
        #expect(try erp.pageURL(of: orders, limit: 5, offset: 5).absoluteString.hasPrefix("https://erp.example.com/sap/opu/odata/sap/ZSRV/SalesOrderSet?"))
        #expect(try erp.pageURL(of: orders, limit: 5, offset: 5).absoluteString.hasSuffix("&$top=5&$skip=5&$inlinecount=allpages"))
    }

    @Test func restIsReadFromItsFirstPageOnly() throws {
        let (crm, orders) = Self.destination(.rest)
        #expect(try crm.pageURL(of: orders, limit: 20, offset: 0).absoluteString.hasSuffix("/SalesOrderSet?$filter=Status%20eq%20'Open'%20and%20Net%20gt%201%2B1%26x%3Dy"))
        #expect(throws: BackendDestinationError.self) { try crm.pageURL(of: orders, limit: 20, offset: 20) }
    }

    @Test func nonASCIIIsEncodedAsUTF8() {
        #expect(BackendDestination.encoded("Zürich #1") == "Z%C3%BCrich%20%231")
    }
}
