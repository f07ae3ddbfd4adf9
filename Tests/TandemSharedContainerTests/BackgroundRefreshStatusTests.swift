import Foundation
import Testing

@testable import TandemSharedContainer

/// The host says whether it gets background time; the flows that write the session's state
/// never erase what it said.
@Suite("Background refresh in the session status")
struct BackgroundRefreshStatusTests {
    let home: ContainerHome

    init() throws { home = try ContainerHome() }

    @Test func withoutAStatusThereIsNothingToAnnotate() throws {
        let container = try home.container()
        #expect(try container.setBackgroundRefresh(.off) == false)
        #expect(try container.status() == nil, "no status is invented: the widgets keep showing signed out")
    }

    @Test func theAppSaysItAndTheFlowsKeepIt() throws {
        let container = try home.container()
        let signedIn = Date(timeIntervalSince1970: 1_800_000_000)
        try container.setStatus(SessionStatus(state: .ready, updatedAt: signedIn, reason: "onboarded"))
        #expect(try container.status()?.backgroundRefresh == nil)
        #expect(try container.setBackgroundRefresh(.lowPowerMode))
        #expect(try container.setBackgroundRefresh(.lowPowerMode) == false, "unchanged: not written again")
        let status = try #require(try container.status())
        #expect(status.state == .ready && status.updatedAt == signedIn && status.reason == "onboarded")
        #expect(status.backgroundRefresh == .lowPowerMode)
        // A flow re-arms the widgets: it does not know about background time, and keeps it.
        try container.setStatus(SessionStatus(state: .ready, updatedAt: signedIn.addingTimeInterval(60), reason: "widgets re-armed"))
        #expect(try container.status()?.backgroundRefresh == .lowPowerMode)
        // The app says it is back.
        #expect(try container.setBackgroundRefresh(.available))
        #expect(try container.status()?.backgroundRefresh == .available)
    }

    @Test func aStatusFromAnOlderHostReadsWithoutIt() throws {
        let container = try home.container()
        try container.setStatus(SessionStatus(state: .ready, updatedAt: Date(timeIntervalSince1970: 1_800_000_000)))
        let json = try JSONEncoder().encode(SessionStatus(state: .signedOut, updatedAt: Date(timeIntervalSince1970: 0)))
        let decoded = try JSONDecoder().decode(SessionStatus.self, from: json)
        #expect(decoded.backgroundRefresh == nil)
        let old = try JSONDecoder().decode(SessionStatus.self, from: Data(#"{"state":"ready","updatedAt":0}"#.utf8))
        #expect(old.state == .ready && old.backgroundRefresh == nil)
    }
}
