import Foundation
import TandemPlatform
import TandemTestSupport
import Testing

/// A folder inbox wakes its waiter when a file it has not seen arrives (renamed in, as the APNs
/// stand-in writes), not for files being written (dot names) or files it has seen, and gives up
/// when its time is over.
struct FolderInboxTests {
    @Test func aNewFileWakesTheWaiterAndSeenOrTemporaryFilesDoNot() async throws {
        let directory = try TemporaryDirectory()
        let inbox = FolderInbox(directory: directory.url.appendingPathComponent("inbox"))
        #expect(await !inbox.waitForArrival(besides: [], upTo: .milliseconds(1), pollInterval: .milliseconds(1)), "an empty inbox: timed out")
        try Data("{}".utf8).write(to: inbox.directory.appendingPathComponent(".tmp-1"))
        try Data("{}".utf8).write(to: inbox.directory.appendingPathComponent("first.json"))
        let seen = inbox.names()
        #expect(seen == ["first.json"], "a dot file is still being written")
        #expect(await !inbox.waitForArrival(besides: seen, upTo: .milliseconds(1), pollInterval: .milliseconds(1)))

        let waiter = Task { await inbox.waitForArrival(besides: seen, upTo: .seconds(600)) }
        try Data("{}".utf8).write(to: inbox.directory.appendingPathComponent("second.json"), options: .atomic)
        #expect(await waiter.value, "the arrival wakes it long before its ten minutes")
    }
}
