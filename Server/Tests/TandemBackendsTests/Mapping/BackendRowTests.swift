import Foundation
import Testing

@testable import TandemBackends

/// A row's JSON object: sorted keys, only present fields, every string escaped.
@Suite("Backend row")
struct BackendRowTests {
    @Test func onlyPresentFieldsAreWrittenInKeyOrder() {
        #expect(BackendRow(id: "0500000000", amount: "25867.03").json() == #"{"amount":"25867.03","id":"0500000000"}"#)
        let full = BackendRow(
            id: "1", title: "t", subtitle: "s", value: "v", status: "st", amount: "1.00", currency: "EUR",
            date: "2024-01-01", etag: "W/\"1\"", address: "https://x/1")
        #expect(full.json() == #"{"address":"https://x/1","amount":"1.00","currency":"EUR","date":"2024-01-01","etag":"W/\"1\"","id":"1","status":"st","subtitle":"s","title":"t","value":"v"}"#)
    }

    @Test func controlCharactersQuotesAndSeparatorsAreEscaped() {
        let title = "a\"b\\c\n\r\t\u{08}\u{0C}\u{01}\u{1F}\u{7F}/é😀\u{2028}\u{2029}</script>"
        let json = BackendRow(id: "x", title: title).json()
        #expect(json == #"{"id":"x","title":"a\"b\\c\n\r\t\b\f\u0001\u001f"# + "\u{7F}/é😀" + #"\u2028\u2029</script>"}"#)
    }

    @Test func theJSONReadsBackToTheSameValues() throws {
        let row = BackendRow(
            id: "\u{0}id", title: "Toms Spezialitäten \"Münster\"", subtitle: "\\\\server\\share", value: "\u{1B}[31m",
            status: "\u{2028}", amount: "-0.50", currency: "€", date: "2016-03-17T11:05:00.385Z", etag: "W/\"x\"",
            address: "/sap/opu/odata/sap/ZUI5_GWSAMPLE_BASIC/SalesOrderSet('205')")
        let text = row.json()
        let parsed = try BackendJSON.parse(Array(text.utf8))
        let expected: [(String, String?)] = [
            ("address", row.address), ("amount", row.amount), ("currency", row.currency), ("date", row.date),
            ("etag", row.etag), ("id", row.id), ("status", row.status), ("subtitle", row.subtitle),
            ("title", row.title), ("value", row.value),
        ]
        #expect(parsed == .object(expected.map { BackendJSONMember(key: $0.0, value: .string($0.1 ?? "")) }))
        let foundation = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String]
        #expect(foundation?["title"] == row.title)
        #expect(foundation?["id"] == row.id)
        #expect(!text.contains("\n") && !text.contains(" \"") && !text.contains(": "))
    }
}
