import Testing

@testable import TandemBackends

/// The mapper on small bodies written for each rule: conversions, limits and every error.
/// (The recorded responses are mapped in the `…FixtureTests` suites.)
@Suite("Backend page mapper")
struct BackendPageMapperTests {
    private func map(
        _ body: String, _ mapping: EntitySetMapping, headers: [(name: String, value: String)] = [], limit: Int = 50
    ) throws(BackendMappingError) -> BackendPage {
        try BackendPageMapper.map(body: Array(body.utf8), headers: headers, mapping: mapping, limit: limit)
    }

    private func refusal(
        _ body: String, _ mapping: EntitySetMapping, headers: [(name: String, value: String)] = [], limit: Int = 50
    ) -> BackendMappingError? {
        do {
            _ = try map(body, mapping, headers: headers, limit: limit)
            return nil
        } catch {
            return error
        }
    }

    private func rest(
        items: String = "", id: String = "/id", _ change: (inout EntitySetMapping) throws -> Void = { _ in }
    ) throws -> EntitySetMapping {
        var mapping = EntitySetMapping(protocolKind: .rest, items: try JSONPointer(items), id: try FieldMapping(id))
        try change(&mapping)
        return mapping
    }

    @Test func v2DatesDecimalsAndInt64sAreExact() throws {
        let body = #"""
            {"d":{"results":[
              {"__metadata":{"uri":"https://s4/sap/opu/odata/sap/API/A_X('1')","type":"API.A_XType","etag":"W/\"datetimeoffset'2018-05-03T14%3A19%3A49Z'\""},
               "ID":"9223372036854775807","Amount":"4805.10","Created":"\/Date(1700000000000)\/","Changed":"/Date(1700000000000+0060)/",
               "Posted":"2023-11-14T22:13:20","Old":"\/Date(-86400000)\/","Open":true,"Qty":"1E+2"}
            ]}}
            """#
        let mapping = EntitySetMapping(
            protocolKind: .odataV2, id: try FieldMapping("/ID", type: .edmInt64), title: try FieldMapping("/Changed", type: .edmDateTimeOffset),
            subtitle: try FieldMapping("/Posted", type: .edmDateTime), value: try FieldMapping("/Qty", type: .edmDecimal),
            amount: try FieldMapping("/Amount", type: .edmDecimal), status: try FieldMapping("/Open"),
            date: try FieldMapping("/Created", type: .edmDateTime))
        let page = try map(body, mapping)
        #expect(page.rows == [BackendRow(
            id: "9223372036854775807", title: "2023-11-14T21:13:20Z", subtitle: "2023-11-14T22:13:20Z", value: "100",
            status: "true", amount: "4805.10", date: "2023-11-14T22:13:20Z",
            etag: "W/\"datetimeoffset'2018-05-03T14%3A19%3A49Z'\"", address: "https://s4/sap/opu/odata/sap/API/A_X('1')")])
        var old = mapping
        old.date = try FieldMapping("/Old")
        #expect(try map(body, old).rows.first?.date == "1969-12-31T00:00:00Z")
    }

    @Test func v2BareDArraysAreItems() throws {
        let mapping = EntitySetMapping(protocolKind: .odataV2, id: try FieldMapping("/ID"))
        #expect(try map(#"{"d":[{"ID":"1"},{"ID":2}]}"#, mapping).rows.map(\.id) == ["1", "2"])
        #expect(try map(#"{"d":[]}"#, mapping).rows.isEmpty)
        #expect(refusal(#"{"d":{"__count":"0"}}"#, mapping) == .itemsNotFound(pointer: "/d/results"))
        #expect(refusal(#"{"value":[]}"#, mapping) == .itemsNotFound(pointer: "/d/results"))
        #expect(refusal(#"{"d":{"results":{"ID":"1"}}}"#, mapping) == .itemsNotAnArray(pointer: "/d/results"))
    }

    @Test func v4OffsetsAndIEEE754StringsAreExact() throws {
        let body = #"""
            {"@odata.context":"$metadata#Orders","value":[
              {"@odata.etag":"W/\"1\"","@odata.id":"Orders(1)","OrderID":1,"When":"2011-05-29T14:21:12-08:00","Day":"2024-02-29",
               "Total":"0.1","Big":635545521745890001,"Rate":1.5e-3,"Open":false},
              {"OrderID":2,"When":"2011-05-29T14:21:12.123456789+05:30","Total":12,"Day":null}
            ],"@odata.nextLink":"Orders?$skiptoken=2"}
            """#
        let mapping = EntitySetMapping(
            protocolKind: .odataV4, id: try FieldMapping("/OrderID", type: .edmInt32), title: try FieldMapping("/Big", type: .edmInt64),
            subtitle: try FieldMapping("/Day", type: .edmDate), value: try FieldMapping("/Rate", type: .edmDouble),
            amount: try FieldMapping("/Total", type: .edmDecimal), status: try FieldMapping("/Open", type: .edmBoolean),
            date: try FieldMapping("/When", type: .edmDateTimeOffset))
        let page = try map(body, mapping)
        #expect(page.rows == [
            BackendRow(
                id: "1", title: "635545521745890001", subtitle: "2024-02-29", value: "0.0015", status: "false",
                amount: "0.1", date: "2011-05-29T22:21:12Z", etag: "W/\"1\"", address: "Orders(1)"),
            BackendRow(id: "2", amount: "12", date: "2011-05-29T08:51:12.123Z"),
        ])
        #expect(page.next == .url("Orders?$skiptoken=2"))
    }

    @Test func untypedFieldsReadStringsNumbersAndBooleans() throws {
        let body = #"[{"id":7,"customer":{"name":"Ana"},"n":1.50,"ok":true,"when":"2024-01-01T00:00:00+01:00","day":"2024-01-01","cur":"EUR"}]"#
        let mapping = try rest {
            $0.title = try FieldMapping("/customer/name")
            $0.value = try FieldMapping("/n")
            $0.status = try FieldMapping("/ok")
            $0.subtitle = try FieldMapping("/day")
            $0.amount = try FieldMapping("/n")
            $0.currency = try FieldMapping("/cur")
            $0.date = try FieldMapping("/when")
        }
        #expect(try map(body, mapping).rows == [BackendRow(
            id: "7", title: "Ana", subtitle: "2024-01-01", value: "1.50", status: "true", amount: "1.50", currency: "EUR",
            date: "2023-12-31T23:00:00Z")])
        var dayOnly = mapping
        dayOnly.date = try FieldMapping("/day")
        #expect(try map(body, dayOnly).rows.first?.date == "2024-01-01")
    }

    @Test func missingAndNullOptionalFieldsAreAbsent() throws {
        let mapping = try rest {
            $0.title = try FieldMapping("/title")
            $0.amount = try FieldMapping("/amount")
            $0.date = try FieldMapping("/date")
            $0.itemETag = try JSONPointer("/etag")
        }
        #expect(try map(#"[{"id":"a","title":null,"amount":null,"date":null,"etag":null},{"id":"b"}]"#, mapping).rows
            == [BackendRow(id: "a"), BackendRow(id: "b")])
    }

    @Test func aMissingNullOrEmptyIDIsRefusedWithItsIndex() throws {
        let mapping = try rest()
        #expect(refusal(#"[{"id":"a"},{"name":"no id"}]"#, mapping) == .missingID(index: 1))
        #expect(refusal(#"[{"id":null}]"#, mapping) == .missingID(index: 0))
        #expect(refusal(#"[{"id":"a"},{"id":"b"},{"id":""}]"#, mapping) == .missingID(index: 2))
        #expect(refusal(#"[{"id":{"value":1}}]"#, mapping) == .wrongType(index: 0, pointer: "/id", expected: "string or number"))
        #expect(refusal(#"[{"id":true}]"#, mapping) == .wrongType(index: 0, pointer: "/id", expected: "string or number"))
        #expect(refusal(#"[1]"#, mapping) == .itemNotAnObject(index: 0))
    }

    @Test func fieldsOfTheWrongTypeAreRefusedWithItemAndPointer() throws {
        #expect(refusal(#"[{"id":1,"c":{"name":"x"}}]"#, try rest { $0.title = try FieldMapping("/c") })
            == .wrongType(index: 0, pointer: "/c", expected: "string, number or boolean"))
        #expect(refusal(#"[{"id":1,"t":5}]"#, try rest { $0.title = try FieldMapping("/t", type: .string) })
            == .wrongType(index: 0, pointer: "/t", expected: "string"))
        #expect(refusal(#"[{"id":1,"t":"5"}]"#, try rest { $0.value = try FieldMapping("/t", type: .number) })
            == .wrongType(index: 0, pointer: "/t", expected: "number"))
        #expect(refusal(#"[{"id":1,"t":"yes"}]"#, try rest { $0.status = try FieldMapping("/t", type: .boolean) })
            == .wrongType(index: 0, pointer: "/t", expected: "boolean"))
        #expect(refusal(#"[{"id":1,"a":"1.00"}]"#, try rest { $0.amount = try FieldMapping("/a", type: .number) })
            == .wrongType(index: 0, pointer: "/a", expected: "number"))
        #expect(refusal(#"[{"id":1,"a":1.00}]"#, try rest { $0.amount = try FieldMapping("/a", type: .string) })
            == .wrongType(index: 0, pointer: "/a", expected: "string"))
        #expect(refusal(#"[{"id":1,"a":[1]}]"#, try rest { $0.amount = try FieldMapping("/a") })
            == .wrongType(index: 0, pointer: "/a", expected: "number or decimal string"))
        #expect(refusal(#"[{"id":1,"d":1700000000}]"#, try rest { $0.date = try FieldMapping("/d") })
            == .wrongType(index: 0, pointer: "/d", expected: "date string"))
        #expect(refusal(#"[{"id":1,"e":1}]"#, try rest { $0.itemETag = try JSONPointer("/e") })
            == .wrongType(index: 0, pointer: "/e", expected: "string"))
        #expect(refusal(#"{"d":{"results":[{"ID":"1","__metadata":{"uri":5}}]}}"#,
            EntitySetMapping(protocolKind: .odataV2, id: try FieldMapping("/ID")))
            == .wrongType(index: 0, pointer: "/__metadata/uri", expected: "string"))
    }

    @Test func unusableValuesAreRefusedWithItemAndPointer() throws {
        #expect(refusal(#"[{"id":1,"a":"12,50"}]"#, try rest { $0.amount = try FieldMapping("/a") })
            == .invalidValue(index: 0, pointer: "/a", reason: "not a decimal number"))
        #expect(refusal(#"[{"id":1,"d":"yesterday"}]"#, try rest { $0.date = try FieldMapping("/d") })
            == .invalidValue(index: 0, pointer: "/d", reason: "not a date and time of the years 1 to 9999"))
        #expect(refusal(#"[{"id":1,"d":"2024-01-01T10:00:00"}]"#, try rest { $0.date = try FieldMapping("/d", type: .iso8601) }) != nil)
        let v4 = EntitySetMapping(protocolKind: .odataV4, id: try FieldMapping("/ID", type: .edmInt32))
        #expect(refusal(#"{"value":[{"ID":2147483648}]}"#, v4) == .invalidValue(index: 0, pointer: "/ID", reason: "not an integer in range"))
        #expect(refusal(#"{"value":[{"ID":1.0}]}"#, v4) == .invalidValue(index: 0, pointer: "/ID", reason: "not an integer in range"))
        var guid = v4
        guid.id = try FieldMapping("/ID", type: .edmGuid)
        #expect(try map(#"{"value":[{"ID":"9d9b2fa0-efbf-490e-a5e3-bac8f7d47354"}]}"#, guid).rows.first?.id == "9d9b2fa0-efbf-490e-a5e3-bac8f7d47354")
        #expect(refusal(#"{"value":[{"ID":"9d9b2fa0"}]}"#, guid) == .invalidValue(index: 0, pointer: "/ID", reason: "not a GUID"))
        var double = v4
        double.amount = try FieldMapping("/A", type: .edmDouble)
        #expect(refusal(#"{"value":[{"ID":1,"A":"INF"}]}"#, double) == .invalidValue(index: 0, pointer: "/A", reason: "not a decimal number"))
    }

    @Test func itemsThatAreNotAnArrayAreRefused() throws {
        #expect(refusal(#"{"results":{"id":1}}"#, try rest(items: "/results")) == .itemsNotAnArray(pointer: "/results"))
        #expect(refusal(#"{"data":[]}"#, try rest(items: "/results")) == .itemsNotFound(pointer: "/results"))
        #expect(refusal(#"{"id":1}"#, try rest()) == .itemsNotAnArray(pointer: ""))
        let v4 = EntitySetMapping(protocolKind: .odataV4, id: try FieldMapping("/ID"))
        #expect(refusal(#"{"value":"none"}"#, v4) == .itemsNotAnArray(pointer: "/value"))
        #expect(refusal(#"{"error":{"code":"404"}}"#, v4) == .itemsNotFound(pointer: "/value"))
    }

    @Test func theLimitKeepsTheFirstRowsAndTheNextPage() throws {
        let body = #"{"value":[{"ID":1},{"ID":2},{"ID":3,"broken":{}}],"@odata.nextLink":"https://x/Orders?$skiptoken=3"}"#
        var mapping = EntitySetMapping(protocolKind: .odataV4, id: try FieldMapping("/ID"))
        mapping.title = try FieldMapping("/broken")
        let page = try map(body, mapping, limit: 2)
        #expect(page.rows.map(\.id) == ["1", "2"])
        #expect(page.next == .url("https://x/Orders?$skiptoken=3"))
        #expect(refusal(body, mapping, limit: 3) == .wrongType(index: 2, pointer: "/broken", expected: "string, number or boolean"))
        #expect(refusal(body, mapping, limit: 0) == .invalidLimit(0))
        #expect(refusal(body, mapping, limit: -5) == .invalidLimit(-5))
    }

    @Test func restCursorsAndNextURLsComeFromTheBody() throws {
        let cursor = try rest(items: "/data") { $0.paging = .cursor(try JSONPointer("/response_metadata/next_cursor")) }
        #expect(try map(#"{"data":[],"response_metadata":{"next_cursor":"dGVhbTpDMDYxRkE1UEI="}}"#, cursor).next == .cursor("dGVhbTpDMDYxRkE1UEI="))
        #expect(try map(#"{"data":[],"response_metadata":{"next_cursor":""}}"#, cursor).next == nil)
        #expect(try map(#"{"data":[],"response_metadata":{"next_cursor":null}}"#, cursor).next == nil)
        #expect(try map(#"{"data":[]}"#, cursor).next == nil)
        #expect(try map(#"{"data":[],"response_metadata":{"next_cursor":1700000000123}}"#, cursor).next == .cursor("1700000000123"))
        #expect(refusal(#"{"data":[],"response_metadata":{"next_cursor":true}}"#, cursor)
            == .invalidPageField(pointer: "/response_metadata/next_cursor", expected: "cursor string or number"))
        let nextURL = try rest(items: "/results") { $0.paging = .nextURL(try JSONPointer("/next")) }
        #expect(try map(#"{"count":3,"next":"http://testserver/?page=2","previous":null,"results":[]}"#, nextURL).next
            == .url("http://testserver/?page=2"))
        #expect(refusal(#"{"next":3,"results":[]}"#, nextURL) == .invalidPageField(pointer: "/next", expected: "next URL string"))
        let v2 = EntitySetMapping(protocolKind: .odataV2, id: try FieldMapping("/ID"))
        #expect(refusal(#"{"d":{"results":[],"__next":false}}"#, v2) == .invalidPageField(pointer: "/d/__next", expected: "next link string"))
    }

    @Test func headersAreMatchedWithoutCase() throws {
        let mapping = try rest { $0.paging = .linkHeader }
        let headers = [(name: "etag", value: " W/\"abc\" "), (name: "LINK", value: #"<https://x/?page=2>; rel="next""#)]
        let page = try map("[]", mapping, headers: headers)
        #expect(page.etag == "W/\"abc\"")
        #expect(page.next == .url("https://x/?page=2"))
        #expect(try map("[]", mapping).next == nil)
        #expect(try map("[]", try rest(), headers: headers).next == nil)
    }

    @Test func bodiesAndMappingsAreCheckedFirst() throws {
        let mapping = try rest()
        let tooLarge = [UInt8](repeating: 0x20, count: BackendPageMapper.maximumBodySize + 1)
        #expect(throws: BackendMappingError.bodyTooLarge(bytes: tooLarge.count, limit: BackendPageMapper.maximumBodySize)) {
            try BackendPageMapper.map(body: tooLarge, headers: [], mapping: mapping, limit: 1)
        }
        #expect(refusal("[{\"id\":1}", mapping) == .invalidJSON(offset: 9, reason: "unexpected end of input"))
        var invalid = mapping
        invalid.items = nil
        guard case .invalidMapping? = refusal("[]", invalid) else {
            Issue.record("an invalid mapping was used")
            return
        }
    }

    @Test func everyErrorDescribesItselfWithoutValues() {
        let errors: [BackendMappingError] = [
            .bodyTooLarge(bytes: 9, limit: 8), .invalidJSON(offset: 3, reason: "unexpected character"),
            .nestingTooDeep(offset: 64, limit: 64), .invalidPointer("a", reason: "r"), .invalidMapping("m"), .invalidLimit(0),
            .itemsNotFound(pointer: "/value"), .itemsNotAnArray(pointer: "/value"), .itemNotAnObject(index: 1),
            .missingID(index: 2), .wrongType(index: 3, pointer: "/c", expected: "string"),
            .invalidValue(index: 4, pointer: "/d", reason: "not a date"), .invalidPageField(pointer: "/next", expected: "next URL string"),
        ]
        let descriptions = errors.map(\.description)
        #expect(Set(descriptions).count == errors.count)
        #expect(descriptions[9] == "item 2 of the backend page has no id")
        #expect(descriptions[10] == "item 3 of the backend page has no string at \"/c\"")
    }
}
