import Testing

@testable import TandemBackends

/// Recorded OData V2 responses: SAP Gateway's GWSAMPLE_BASIC (OpenUI5's test data) and Apache
/// Olingo V2's serializer output (see `Fixtures/SOURCES.md`), mapped to rows.
@Suite("OData V2 fixtures")
struct BackendPageMapperODataV2FixtureTests {
    /// `\/Date(…)\/` as SAP Gateway escapes it, decimals as strings, `__metadata.uri` as the address.
    @Test func gatewayLineItemsWithDatesAndDecimalStrings() throws {
        let mapping = EntitySetMapping(
            protocolKind: .odataV2,
            id: FieldMapping(pointer: JSONPointer(tokens: ["ItemPosition"]), type: .edmString),
            title: FieldMapping(pointer: JSONPointer(tokens: ["ProductID"])),
            subtitle: FieldMapping(pointer: JSONPointer(tokens: ["Note"])),
            value: FieldMapping(pointer: JSONPointer(tokens: ["NetAmount"]), type: .edmDecimal),
            amount: FieldMapping(pointer: JSONPointer(tokens: ["GrossAmount"]), type: .edmDecimal),
            currency: FieldMapping(pointer: JSONPointer(tokens: ["CurrencyCode"]), type: .edmString),
            status: FieldMapping(pointer: JSONPointer(tokens: ["Quantity"]), type: .edmDecimal),
            date: FieldMapping(pointer: JSONPointer(tokens: ["DeliveryDate"]), type: .edmDateTime))
        let page = try BackendPageMapper.map(
            body: try Fixture.bytes("odata-v2-gwsample-line-items.json"), headers: [(name: "dataserviceversion", value: "2.0")],
            mapping: mapping, limit: 10)
        let base = "/sap/opu/odata/sap/ZUI5_GWSAMPLE_BASIC/SalesOrderLineItemSet(SalesOrderID='230',ItemPosition="
        #expect(page.rows == [
            BackendRow(
                id: "010", title: "HT-7000", subtitle: "Item 010", value: "1098.00", status: "2", amount: "1306.62",
                currency: "EUR", date: "2021-12-16T15:40:34.615Z", address: base + "'010')"),
            BackendRow(
                id: "020", title: "HT-1052", subtitle: "Item 020", value: "340.00", status: "2", amount: "404.60",
                currency: "EUR", date: "2021-12-16T15:42:17.804Z", address: base + "'020')"),
        ])
        #expect(page.next == nil)
        #expect(page.count == 2)
    }

    /// `__metadata.etag` per item and `d.__next`, a relative link.
    @Test func olingoRoomsWithETagsAndANextLink() throws {
        let mapping = EntitySetMapping(
            protocolKind: .odataV2, id: FieldMapping(pointer: JSONPointer(tokens: ["Id"])),
            title: FieldMapping(pointer: JSONPointer(tokens: ["Name"])),
            value: FieldMapping(pointer: JSONPointer(tokens: ["Seats"]), type: .edmInt32))
        let page = try BackendPageMapper.map(
            body: try Fixture.bytes("odata-v2-olingo-rooms-next.json"), headers: [], mapping: mapping, limit: 10)
        #expect(page == BackendPage(
            rows: [BackendRow(id: "1", value: "123", etag: "W/\"1\"", address: "http://host:80/service/Rooms('1')")],
            next: .url("Rooms?$skiptoken=2")))
    }
}
