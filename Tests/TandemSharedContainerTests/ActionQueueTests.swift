import Foundation
import TandemPlatform
import TandemProtocol
import Testing

@testable import TandemSharedContainer

@Suite("Action requests")
struct ActionQueueTests {
    let home: ContainerHome
    let sealingKey: SharedSealingKey
    let share: AuxiliaryShare
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    let approve = ActionRequest.Draft(
        ItemAddress(destination: "sales", entitySet: "Approvals", item: "PR-1003"), action: .approve, etag: #""5f2a""#, amount: "480.00",
        surface: .widget, family: "systemMedium")

    init() throws {
        home = try ContainerHome()
        sealingKey = try SharedSealingKey.provision(in: home.sharedSecrets)
        share = try .random()
    }

    @Test func aTapIsListedByTheHostWithItsItemKeyNonceAndShareSealed() throws {
        let container = try home.container()
        let written = try container.actions.submit(approve, share: share, sealingKey: sealingKey, now: now)
        #expect(try container.actions.pending(sealingKey: sealingKey) == [.request(written)])
        #expect(written.draft == approve)
        #expect(written.expiresAt == now.addingTimeInterval(ActionRequest.defaultLifetime))
        #expect(ItemActionRules.isValidIdempotencyKey(written.idempotencyKey))
        #expect(written.nonce != written.idempotencyKey)
        #expect(written.share == share)
        // Nothing readable in the file: not the item, the key, the nonce or the share.
        for (_, bytes) in try home.containerFiles() {
            for secret in ["PR-1003", written.idempotencyKey, written.nonce, share.bytes.base64EncodedString()] {
                #expect(bytes.range(of: Data(secret.utf8)) == nil)
            }
        }
        // Data requests in the same folder neither see it nor log it as foreign.
        #expect(try container.requests.pending(sealingKey: sealingKey).isEmpty)
        #expect(!home.recorder.lines.contains { $0.contains("foreign") })
    }

    @Test func aDoubleTapLeavesOneRequestWithOneIdempotencyKey() throws {
        let container = try home.container()
        let first = try container.actions.submit(approve, share: share, sealingKey: sealingKey, now: now)
        let second = try container.actions.submit(approve, share: share, sealingKey: sealingKey, now: now.addingTimeInterval(0.3))
        #expect(second == first)
        #expect(second.idempotencyKey == first.idempotencyKey)
        #expect(try container.actions.pending(sealingKey: sealingKey).count == 1)
        // Another action, or the same action on another version of the item, is another request.
        var reject = approve
        reject.action = .reject
        var changed = approve
        changed.etag = #""77c1""#
        try container.actions.submit(reject, share: share, sealingKey: sealingKey, now: now)
        try container.actions.submit(changed, share: share, sealingKey: sealingKey, now: now)
        #expect(try container.actions.pending(sealingKey: sealingKey).count == 3)
    }

    @Test func aTapAfterTheFirstExpiredIsANewRequestAndLeavesTheOldResult() throws {
        let container = try home.container()
        let first = try container.actions.submit(approve, share: share, sealingKey: sealingKey, lifetime: 60, now: now)
        try container.actions.write(ActionResult(id: first.id, draft: approve, outcome: .expired, at: now.addingTimeInterval(61)), sealingKey: sealingKey)
        let again = try container.actions.submit(approve, share: share, sealingKey: sealingKey, lifetime: 60, now: now.addingTimeInterval(61))
        #expect(again.idempotencyKey != first.idempotencyKey)
        #expect(again.nonce != first.nonce)
        // The old answer stays (the widget shows the newer of the two); it is the host's to replace.
        #expect(container.actions.result(id: again.id, sealingKey: sealingKey)?.outcome == .expired)
    }

    @Test(arguments: DamagedFile.allCases)
    func aDamagedRequestIsListedAsUnreadableByItsName(_ damage: DamagedFile) throws {
        let container = try home.container()
        let written = try container.actions.submit(approve, share: share, sealingKey: sealingKey, now: now)
        let file = home.containerDirectory.appendingPathComponent("requests/\(written.id).action")
        try damage.bytes(replacing: try Data(contentsOf: file)).write(to: file)
        let readings = try container.actions.pending(sealingKey: sealingKey)
        #expect(readings.count == 1)
        guard case .unreadable(let id, _) = readings.first else {
            Issue.record("a damaged request read as \(readings)")
            return
        }
        #expect(id == written.id)
        #expect(container.actions.waiting(sealingKey: sealingKey).isEmpty)
    }

    @Test func aRequestSealedUnderAnotherKeyOrMovedToAnotherNameDoesNotOpen() throws {
        let container = try home.container()
        let otherKey = try SharedSealingKey.provision(in: try FileSecretStorage(directory: home.root.appendingPathComponent("other")))
        let forged = try container.actions.submit(approve, share: share, sealingKey: otherKey, now: now)
        guard case .unreadable = try container.actions.pending(sealingKey: sealingKey).first else {
            Issue.record("a request under another key opened")
            return
        }
        container.actions.discard(id: forged.id)
        // A genuine request copied to the name of another item's request.
        let genuine = try container.actions.submit(approve, share: share, sealingKey: sealingKey, now: now)
        var other = approve
        other.item = "PR-1009"
        let target = home.containerDirectory.appendingPathComponent("requests/\(ActionRequest.id(of: other)).action")
        try FileManager.default.copyItem(at: home.containerDirectory.appendingPathComponent("requests/\(genuine.id).action"), to: target)
        let unreadable = try container.actions.pending(sealingKey: sealingKey).filter { if case .unreadable = $0 { true } else { false } }
        #expect(unreadable.count == 1)
    }

    @Test func aLimitOpensOnlyTheFilesWrittenLongestAgoAndLeavesTheRest() throws {
        let container = try home.container()
        // Five taps, their files dated out of order; a junk file dated before them all.
        var written: [String: ActionRequest] = [:]
        for (index, minutes) in [3, 1, 5, 2, 4].enumerated() {
            var draft = approve
            draft.item = "PR-\(2000 + index)"
            let request = try container.actions.submit(draft, share: share, sealingKey: sealingKey, now: now.addingTimeInterval(Double(minutes) * 60))
            try setModified(request.id, now.addingTimeInterval(Double(minutes) * 60))
            written[draft.item] = request
        }
        let junk = String(repeating: "b", count: 64)
        try Data("not a request".utf8).write(to: home.containerDirectory.appendingPathComponent("requests/\(junk).action"))
        try setModified(junk, now)

        let first = try container.actions.pending(sealingKey: sealingKey, limit: 3)
        #expect(first.count == 3, "three files opened, not six")
        guard case .unreadable(let id, _) = first.first else {
            Issue.record("the oldest file, the junk, was not listed first: \(first)")
            return
        }
        #expect(id == junk)
        #expect(Array(first.dropFirst()) == [.request(try #require(written["PR-2001"])), .request(try #require(written["PR-2003"]))])
        // Once those are handled, the next call takes the next oldest.
        container.actions.discard(id: junk)
        for case .request(let request) in first { container.actions.complete(request) }
        let next = try container.actions.pending(sealingKey: sealingKey, limit: 3)
        #expect(next == ["PR-2000", "PR-2004", "PR-2002"].compactMap { written[$0] }.map(ActionReading.request))
        #expect(try container.actions.pending(sealingKey: sealingKey).count == 3, "no limit: every file")
    }

    /// Sets the modification date of request `id`'s file, as the file system's clock would have.
    private func setModified(_ id: String, _ date: Date) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: date], ofItemAtPath: home.containerDirectory.appendingPathComponent("requests/\(id).action").path)
    }

    @Test func completingRemovesExactlyThatRequest() throws {
        let container = try home.container()
        let request = try container.actions.submit(approve, share: share, sealingKey: sealingKey, now: now)
        #expect(container.actions.complete(request))
        #expect(try container.actions.pending(sealingKey: sealingKey).isEmpty)
        #expect(!container.actions.complete(request))
    }

    @Test func resultsAreSealedReadByIdAndDroppedAfterAnHour() throws {
        let container = try home.container()
        let request = try container.actions.submit(approve, share: share, sealingKey: sealingKey, now: now)
        let done = ActionResult(id: request.id, draft: approve, outcome: .done(status: "approved"), at: now.addingTimeInterval(1))
        try container.actions.write(done, sealingKey: sealingKey)
        #expect(container.actions.result(id: request.id, sealingKey: sealingKey) == done)
        #expect(container.actions.results(sealingKey: sealingKey, now: now.addingTimeInterval(2)) == [done])
        // A result file copied to another id's name does not read.
        let other = String(repeating: "a", count: 64)
        try FileManager.default.copyItem(
            at: home.containerDirectory.appendingPathComponent("action-results/\(request.id).result"),
            to: home.containerDirectory.appendingPathComponent("action-results/\(other).result"))
        #expect(container.actions.result(id: other, sealingKey: sealingKey) == nil)
        let later = now.addingTimeInterval(ActionResult.retention + 2)
        #expect(container.actions.results(sealingKey: sealingKey, now: later, removingOld: true).isEmpty)
        #expect(container.actions.result(id: request.id, sealingKey: sealingKey) == nil)
    }

    @Test func anActionRequestWakesAHostWaitingForRequests() async throws {
        let container = try home.container()
        let seen = container.requests.seen()
        #expect(!container.requests.hasRequestFiles(besides: seen))
        try container.actions.submit(approve, share: share, sealingKey: sealingKey, now: now)
        #expect(container.requests.hasRequestFiles(besides: seen))
    }
}
