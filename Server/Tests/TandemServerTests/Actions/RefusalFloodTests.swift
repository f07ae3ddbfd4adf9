import Foundation
import TandemProtocol
@testable import TandemServer
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// The audit log is no write primitive (S4-05): the kiosk's API key ships inside every copy of its
/// app, so its refused action requests spend a per-app-and-address bucket before anything is
/// written, and their lines are sampled.
@Suite("Refusal floods")
struct RefusalFloodTests {
    @Test("120 refused requests with the public kiosk key write a line or two and then get 429", arguments: TestBackend.allCases)
    func theKioskKeyCannotFillTheAuditLog(backend: TestBackend) async throws {
        try await ActionFixture.withServer(backend) { fixture in
            let etag = try await fixture.item(ActionFixture.lowValue).etag
            var statuses: [Int: Int] = [:]
            for _ in 0..<120 {
                let answer = try await fixture.act(
                    .approve, on: ActionFixture.lowValue, token: nil, key: ActionFixture.newKey(), ifMatch: etag,
                    extra: ["X-API-Key": fixture.demo.apiKey])
                statuses[answer.status, default: 0] += 1
            }
            #expect(statuses[403] == 20 && statuses[429] == 100, "\(statuses)")
            let lines = try await fixture.database.withStorage { storage in
                try await storage.audit.auditEvents(clientID: nil, limit: 1000).filter { $0.kind == "action.refused" }
            }
            #expect(lines.count == 1, "\(lines.map(\.detail))")

            // A minute on, the next line says how many were left out.
            fixture.demo.clock.advance(by: .seconds(61))
            _ = try await fixture.act(
                .approve, on: ActionFixture.lowValue, token: nil, key: ActionFixture.newKey(), ifMatch: etag, extra: ["X-API-Key": fixture.demo.apiKey])
            let next = try await fixture.database.withStorage { storage in
                try await storage.audit.auditEvents(clientID: nil, limit: 1000).filter { $0.kind == "action.refused" }
            }
            #expect(next.count == 2 && next.first?.detail.contains("19 more from this address") == true, "\(next.map(\.detail))")
        }
    }
}
