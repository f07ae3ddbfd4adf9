import Testing

@testable import TandemBackends

/// Recorded OData V4 responses of SAP's EPM sample service (OpenUI5's test data, see
/// `Fixtures/SOURCES.md`) mapped to rows.
@Suite("OData V4 fixtures")
struct BackendPageMapperODataV4FixtureTests {
    private let salesOrders = EntitySetMapping(
        protocolKind: .odataV4,
        id: FieldMapping(pointer: JSONPointer(tokens: ["SalesOrderID"]), type: .edmString),
        title: FieldMapping(pointer: JSONPointer(tokens: ["BuyerName"])),
        subtitle: FieldMapping(pointer: JSONPointer(tokens: ["SO_2_BP", "Address", "City"])),
        value: FieldMapping(pointer: JSONPointer(tokens: ["SO_2_BP", "Address", "GeoLocation", "Latitude"]), type: .edmDecimal),
        amount: FieldMapping(pointer: JSONPointer(tokens: ["GrossAmount"]), type: .edmDecimal),
        currency: FieldMapping(pointer: JSONPointer(tokens: ["CurrencyCode"])),
        status: FieldMapping(pointer: JSONPointer(tokens: ["SO_2_BP", "@odata.etag"])),
        date: FieldMapping(pointer: JSONPointer(tokens: ["SO_2_BP", "ChangedAt"]), type: .edmDateTimeOffset))

    /// Decimals sent as JSON numbers keep their digits (`49.293673600000`); microseconds are cut.
    @Test func salesOrdersWithDecimalNumbers() throws {
        let page = try BackendPageMapper.map(
            body: try Fixture.bytes("odata-v4-sap-sales-orders.json"), headers: [(name: "odata-version", value: "4.0")],
            mapping: salesOrders, limit: 10)
        #expect(page.rows == [
            BackendRow(
                id: "0500000000", title: "SAP", subtitle: "Walldorf", value: "49.293673600000",
                status: "W/\"20160317110500.3856260\"", amount: "25867.03", currency: "EUR", date: "2016-03-17T11:05:00.385Z"),
            BackendRow(
                id: "0500000001", title: "DelBont Industries", subtitle: "Wilmington, Delaware", value: "39.745946800000",
                status: "W/\"20160317075329.0106280\"", amount: "14602.49", currency: "EUR", date: "2016-03-17T07:53:29.010Z"),
            BackendRow(
                id: "0500000002", title: "TECUM", subtitle: "Münster", value: "51.940081800000",
                status: "W/\"20160316072933.0000000\"", amount: "5631.08", currency: "EUR", date: "2016-03-16T07:29:33Z"),
        ])
        #expect(page.next == nil)
        #expect(page.etag == nil)
        #expect(page.rows[0].json()
            == #"{"amount":"25867.03","currency":"EUR","date":"2016-03-17T11:05:00.385Z","id":"0500000000","status":"W/\"20160317110500.3856260\"","subtitle":"Walldorf","title":"SAP","value":"49.293673600000"}"#)
    }

    /// The same service with `IEEE754Compatible=true`: decimals as strings, an ETag per item.
    @Test func salesOrdersWithIEEE754CompatibleStrings() throws {
        var mapping = salesOrders
        mapping.value = FieldMapping(pointer: JSONPointer(tokens: ["SO_2_BP", "Address", "GeoLocation", "Longitude"]), type: .edmDecimal)
        mapping.status = nil
        let page = try BackendPageMapper.map(
            body: try Fixture.bytes("odata-v4-sap-sales-orders-ieee754.json"), headers: [], mapping: mapping, limit: 10)
        #expect(page.rows == [
            BackendRow(
                id: "0500000000", title: "SAP", subtitle: "Walldorf", value: "8.641701933686", amount: "25867.03",
                currency: "EUR", date: "2016-04-12T11:18:32.465Z", etag: "W/\"20160411220000.0000000\""),
            BackendRow(
                id: "0500000001", title: "DelBont Industries", subtitle: "Wilmington, Delaware", value: "-75.546589000000",
                amount: "14602.49", currency: "EUR", date: "2016-04-08T23:00:49Z", etag: "W/\"20160411220000.0000000\""),
        ])
    }

    /// Server-driven paging: `@odata.nextLink` is kept as sent (relative), also when the limit
    /// leaves items out.
    @Test func businessPartnersWithANextLink() throws {
        let mapping = EntitySetMapping(
            protocolKind: .odataV4, id: FieldMapping(pointer: JSONPointer(tokens: ["BusinessPartnerID"])),
            title: FieldMapping(pointer: JSONPointer(tokens: ["CompanyName"]), type: .edmString))
        let body = try Fixture.bytes("odata-v4-sap-business-partners-next.json")
        let next = BackendNextPage.url(
            "/sap/opu/odata4/sap/zui5_testv4/default/sap/zui5_epm_sample/0002/BusinessPartnerList?$skip=0&$top=21&$filter=BusinessPartnerID%20lt%20%270100000030%27&$count=true&custom-option=value&$skiptoken=20")
        let page = try BackendPageMapper.map(body: body, headers: [(name: "ETag", value: "W/\"20190924145600\"")], mapping: mapping, limit: 10)
        #expect(page == BackendPage(
            rows: [
                BackendRow(id: "0100000000", title: "SAP", etag: "W/\"20190930102339.3029120 \""),
                BackendRow(id: "0100000001", title: "Becker Berlin", etag: "W/\"20190321111935.0000000 \""),
                BackendRow(id: "0100000002", title: "DelBont Industries", etag: "W/\"20190321111935.0000000 \""),
            ],
            next: next, etag: "W/\"20190924145600\"", count: 30))
        let limited = try BackendPageMapper.map(body: body, headers: [], mapping: mapping, limit: 1)
        #expect(limited.rows.map(\.id) == ["0100000000"])
        #expect(limited.next == next)
    }
}
