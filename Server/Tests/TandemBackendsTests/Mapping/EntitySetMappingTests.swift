import Foundation
import Testing

@testable import TandemBackends

/// The mapping's rules, and its JSON form.
@Suite("Entity set mapping")
struct EntitySetMappingTests {
    private func rest(_ change: (inout EntitySetMapping) throws -> Void = { _ in }) throws -> EntitySetMapping {
        var mapping = EntitySetMapping(protocolKind: .rest, items: try JSONPointer("/results"), id: try FieldMapping("/id"))
        try change(&mapping)
        return mapping
    }

    private func refusal(_ mapping: EntitySetMapping) -> String? {
        do {
            try mapping.validate()
            return nil
        } catch {
            guard case .invalidMapping(let message) = error else { return "other error: \(error)" }
            return message
        }
    }

    @Test func aCompleteMappingIsValid() throws {
        let mapping = EntitySetMapping(
            protocolKind: .odataV2, id: try FieldMapping("/SalesOrderID", type: .edmString),
            title: try FieldMapping("/CustomerName"), subtitle: try FieldMapping("/customer/name"),
            value: try FieldMapping("/Quantity", type: .edmDecimal), amount: try FieldMapping("/GrossAmount", type: .edmDecimal),
            currency: try FieldMapping("/CurrencyCode", type: .edmString), status: try FieldMapping("/Open", type: .edmBoolean),
            date: try FieldMapping("/CreatedAt", type: .edmDateTime))
        #expect(refusal(mapping) == nil)
        #expect(refusal(try rest { $0.paging = .cursor(try JSONPointer("/meta/next")) }) == nil)
        #expect(refusal(try rest { $0.items = .document; $0.paging = .linkHeader; $0.itemETag = try JSONPointer("/etag") }) == nil)
    }

    @Test func theIDPointsIntoTheItem() throws {
        #expect(refusal(try rest { $0.id = FieldMapping(pointer: .document) })?.contains("id pointer") == true)
        #expect(refusal(try rest { $0.title = FieldMapping(pointer: .document) })?.contains("title pointer") == true)
    }

    @Test func restSaysWhereItemsArePagesAndETags() throws {
        #expect(refusal(try rest { $0.items = nil })?.contains("where the items are") == true)
        #expect(refusal(try rest { $0.paging = .cursor(.document) })?.contains("next-page pointer") == true)
        #expect(refusal(try rest { $0.paging = .nextURL(.document) })?.contains("next-page pointer") == true)
        #expect(refusal(try rest { $0.itemETag = .document })?.contains("ETag pointer") == true)
    }

    @Test(arguments: [BackendProtocolKind.odataV4, .odataV2])
    func odataKeepsWhatTheProtocolFixes(kind: BackendProtocolKind) throws {
        let base = EntitySetMapping(protocolKind: kind, id: try FieldMapping("/ID"))
        #expect(refusal(base) == nil)
        var moved = base
        moved.items = try JSONPointer("/value")
        #expect(refusal(moved)?.contains("leave items empty") == true)
        moved = base
        moved.paging = .linkHeader
        #expect(refusal(moved)?.contains("leave paging empty") == true)
        moved = base
        moved.itemETag = try JSONPointer("/etag")
        #expect(refusal(moved)?.contains("leave itemETag empty") == true)
    }

    @Test func typesMatchTheProtocol() throws {
        #expect(refusal(try rest { $0.title = try FieldMapping("/t", type: .edmString) })?.contains("rest backends do not send Edm.String") == true)
        #expect(refusal(EntitySetMapping(protocolKind: .odataV4, id: try FieldMapping("/ID", type: .string))) != nil)
        #expect(refusal(EntitySetMapping(protocolKind: .odataV4, id: try FieldMapping("/ID"), date: try FieldMapping("/d", type: .edmDateTime))) != nil)
        #expect(refusal(EntitySetMapping(protocolKind: .odataV2, id: try FieldMapping("/ID"), date: try FieldMapping("/d", type: .edmDate))) != nil)
        #expect(refusal(EntitySetMapping(protocolKind: .odataV2, id: try FieldMapping("/ID"), date: try FieldMapping("/d", type: .edmDateTimeOffset))) == nil)
    }

    @Test func typesFitTheirFields() throws {
        #expect(refusal(try rest { $0.amount = try FieldMapping("/a", type: .boolean) })?.contains("cannot fill the amount field") == true)
        #expect(refusal(try rest { $0.date = try FieldMapping("/d", type: .number) })?.contains("cannot fill the date field") == true)
        #expect(refusal(try rest { $0.id = try FieldMapping("/id", type: .iso8601) })?.contains("cannot fill the id field") == true)
        #expect(refusal(try rest { $0.currency = try FieldMapping("/c", type: .number) })?.contains("cannot fill the currency field") == true)
        #expect(refusal(try rest { $0.status = try FieldMapping("/s", type: .iso8601) }) == nil)
    }

    @Test func theMappingRoundTripsThroughJSON() throws {
        let mapping = try rest {
            $0.title = try FieldMapping("/customer/name", type: .string)
            $0.amount = try FieldMapping("/total", type: .number)
            $0.paging = .cursor(try JSONPointer("/response_metadata/next_cursor"))
            $0.itemETag = try JSONPointer("/version")
        }
        let data = try JSONEncoder().encode(mapping)
        #expect(try JSONDecoder().decode(EntitySetMapping.self, from: data) == mapping)
        for paging in [RestPaging.linkHeader, .nextURL(try JSONPointer("/next"))] {
            #expect(try JSONDecoder().decode(RestPaging.self, from: JSONEncoder().encode(paging)) == paging)
        }
    }

    @Test func mappingsAreReadFromTheirDocumentedForm() throws {
        let json = """
            {"protocolKind":"odata-v4","id":{"pointer":"/SalesOrderID","type":"Edm.String"},
             "amount":{"pointer":"/GrossAmount","type":"Edm.Decimal"},"date":{"pointer":"/SO_2_BP/ChangedAt"}}
            """
        let mapping = try JSONDecoder().decode(EntitySetMapping.self, from: Data(json.utf8))
        #expect(mapping.amount == FieldMapping(pointer: JSONPointer(tokens: ["GrossAmount"]), type: .edmDecimal))
        #expect(mapping.date?.pointer == JSONPointer(tokens: ["SO_2_BP", "ChangedAt"]))
        #expect(refusal(mapping) == nil)
        let malformed = #"{"protocolKind":"rest","items":"results","id":{"pointer":"/id"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(EntitySetMapping.self, from: Data(malformed.utf8)) }
        let unknownType = #"{"protocolKind":"rest","items":"","id":{"pointer":"/id","type":"Edm.Float"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(EntitySetMapping.self, from: Data(unknownType.utf8)) }
    }
}
