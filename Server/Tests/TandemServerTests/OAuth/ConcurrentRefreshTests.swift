import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// 50 concurrent `POST /oauth/token` redemptions of one refresh token, split across two real
/// `tandem serve` processes sharing one database.
@Suite("Concurrent refresh across two server processes")
struct ConcurrentRefreshTests {
    @Test("inside the grace window every request receives the one successor", arguments: TestBackend.allCases)
    func twoServersShareOneSuccessor(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let (fixture, token) = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                // Issued on the system clock, which the `tandem serve` processes run on.
                return (fixture, try await fixture.issue(now: Timestamp(Date())))
            }
            let (responses, serverLog) = try await Self.redeemAcrossTwoServers(
                token: token.value, clientID: fixture.clientID, graceSeconds: 30, database: database)
            #expect(responses.filter { $0.status == 200 }.count == 50, "statuses: \(responses.map(\.status)); the servers said: \(serverLog)")
            let successors = Set(responses.compactMap { $0.json["refresh_token"] })
            #expect(successors.count == 1, "every caller receives the same successor")
            try await database.withStorage { storage in
                let rows = try await fixture.on(storage).tokenCount(familyID: token.familyID)
                #expect(rows == 2, "exactly one successor row")
            }
        }
    }

    @Test("without a grace window exactly one request succeeds and 49 get invalid_grant", arguments: TestBackend.allCases)
    func twoServersZeroGraceOneWinner(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let (fixture, token) = try await database.withStorage { storage in
                let fixture = try await TokenFixture.seed(storage)
                // Issued on the system clock, which the `tandem serve` processes run on.
                return (fixture, try await fixture.issue(now: Timestamp(Date())))
            }
            let (responses, serverLog) = try await Self.redeemAcrossTwoServers(
                token: token.value, clientID: fixture.clientID, graceSeconds: 0, database: database)
            #expect(responses.filter { $0.status == 200 }.count == 1, "statuses: \(responses.map(\.status))")
            let refused = responses.filter { $0.status == 400 }
            #expect(refused.count == 49, "statuses: \(responses.map(\.status)); the servers said: \(serverLog)")
            #expect(refused.allSatisfy { $0.json["error"] == "invalid_grant" })
            try await database.withStorage { storage in
                let rows = try await fixture.on(storage).tokenCount(familyID: token.familyID)
                #expect(rows == 2, "exactly one successor row")
            }
        }
    }

    /// Starts two servers on `database`, sends 50 concurrent redemptions alternating between
    /// them, stops both, and returns the responses with the servers' warnings and errors (what a
    /// failure message needs to say why a request was neither a success nor a refusal).
    static func redeemAcrossTwoServers(
        token: String, clientID: String, graceSeconds: Double, database: TestDatabase
    ) async throws -> (responses: [HTTPTestResponse], serverLog: String) {
        let first = try await ServerProcess(database: database.argument, graceSeconds: graceSeconds, scratch: database.directory.url)
        let second: ServerProcess
        do {
            second = try await ServerProcess(database: database.argument, graceSeconds: graceSeconds, scratch: database.directory.url)
        } catch {
            try await first.stop()
            throw error
        }
        let bases = [first.baseURL, second.baseURL]
        #expect(bases[0] != bases[1])
        let client = HTTPTestClient()
        // Warm both servers' HTTP and database connection pools with as many concurrent health
        // checks as the race sends, so the 50 requests race on the token, not on connecting (on a
        // loaded machine a burst of new PostgreSQL connections can outlast the connect timeout).
        let warmed = await withTaskGroup(of: Int.self) { group in
            for index in 0..<50 { group.addTask { (try? await client.get(bases[index % 2], "health"))?.status ?? 0 } }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        guard warmed.allSatisfy({ $0 == 200 }) else {
            try await first.stop()
            try await second.stop()
            throw TestSetupError("the servers did not answer their health checks: \(warmed); they said: \(await first.output() + second.output())")
        }
        let result = await withTaskGroup(of: Result<HTTPTestResponse, any Error>.self) { group in
            for index in 0..<50 {
                group.addTask {
                    do {
                        return .success(try await client.postForm(bases[index % 2], "oauth/token", [
                            ("grant_type", "refresh_token"), ("refresh_token", token), ("client_id", clientID),
                        ]))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        try await first.stop()
        try await second.stop()
        let serverLog = (await first.output() + second.output()).split(separator: "\n")
            .filter { $0.contains("error") || $0.contains("warning") || $0.contains("critical") }.joined(separator: "\n")
        return (try result.map { try $0.get() }, serverLog)
    }
}
