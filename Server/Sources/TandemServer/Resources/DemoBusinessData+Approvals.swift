import Foundation

// The demo's actionable entity set: purchase requisitions awaiting approval.
extension DemoBusinessData {
    /// A purchase requisition awaiting a decision (`PR-1001`, …): every other one above the
    /// default step-up threshold (1000.00), so the demo shows both kinds of approval.
    struct Approval: Encodable {
        let ApprovalID: String
        let Title: String
        let Requester: String
        let Amount: String
        let Currency: String
        let Status: String
        let RequestedAt: String

        init(index: Int, random: inout SplitMix64) {
            let (title, cents) = Self.requests[index % Self.requests.count]
            ApprovalID = "PR-\(1001 + index)"
            Title = title
            Requester = "\(random.pick(Self.firstNames)) \(random.pick(Self.lastNames))"
            // Rounded to whole euros and varied a little, on the side of the threshold the list puts it.
            let varied = cents + random.int(in: 0...9) * 100
            Amount = DemoMoney.format(cents: varied)
            Currency = "EUR"
            Status = "pending"
            RequestedAt = DemoCalendar.dateTime(day: -random.int(in: 0...13), second: random.int(in: 28_800...64_800))
        }

        /// What is requested and its amount in cents: alternately below and above 1000.00.
        static let requests: [(String, Int)] = [
            ("Laptop docking stations (4)", 64_000), ("Conference booth, Munich trade fair", 480_000),
            ("Ergonomic chairs (2)", 79_000), ("CRM licences, annual renewal", 1_250_000),
            ("Team offsite catering", 42_000), ("Warehouse forklift service", 215_000),
            ("Printer toner, quarterly", 18_900), ("Security audit, external", 960_000),
            ("Training: SwiftUI workshop", 89_000), ("Replacement delivery van tyres", 132_000),
            ("Office plants and care", 24_000), ("Cloud backup storage, 3 years", 360_000),
        ]
        static let firstNames = ["Lena", "Jonas", "Amélie", "Marco", "Sofia", "Pieter", "Ines", "Tomasz"]
        static let lastNames = ["Keller", "Dubois", "Rossi", "Novak", "Jansen", "García", "Lindqvist", "Bauer"]
    }
}
