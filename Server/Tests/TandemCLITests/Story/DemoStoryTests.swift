import Foundation
import TandemServerTestSupport
import Testing
import TandemTestSupport

/// `make demo` is a test too: the same script, `scripts/demo-story.sh`, runs its eleven stages
/// against the `tandem` and `tandem-widget` built beside these tests (a real server, a
/// long-running host, widget processes), checking what each one prints. It must pass every
/// stage, and, when a stage fails, name it and stop.
@Suite("make demo: the whole story", .serialized)
struct DemoStoryTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/demo-story.sh")

    @Test func everyStagePasses() async throws {
        let run = try await Self.tell(widget: try TandemExecutable.locate("tandem-widget"))
        #expect(run.outcome.status == 0, "\(run.outcome.stdout.suffix(3000))\(run.outcome.stderr.suffix(2000))")
        #expect(run.stages.count == 11)
        for stage in run.stages {
            #expect(stage["result"] as? String == "ok", "\(stage)")
            #expect((stage["seconds"] as? Double ?? -1) >= 0, "\(stage)")
        }
        #expect(run.outcome.stdout.contains("[Signed out]"), "stage 2 shows the signed-out box")
        #expect(run.outcome.stdout.contains("The story ran through: 11 stages"))
    }

    @Test func aFailingStageIsNamedAndTheRestDoNotRun() async throws {
        // A widget binary that cannot draw anything: stage 2 must fail, and say so.
        let scratch = try TemporaryDirectory()
        let broken = scratch.url.appendingPathComponent("tandem-widget")
        try Data("#!/bin/sh\necho 'this widget is broken' >&2\nexit 3\n".utf8).write(to: broken)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: broken.path)

        let run = try await Self.tell(widget: broken)
        #expect(run.outcome.status == 1)
        #expect(run.outcome.stderr.contains("The demo failed at stage 2"), "\(run.outcome.stderr)")
        #expect(run.outcome.stderr.contains("this widget is broken"), "the reason comes with it: \(run.outcome.stderr)")
        #expect(run.stages.map { $0["result"] as? String } == ["ok", "FAILED"] + Array(repeating: "not run", count: 9))
    }

    /// Runs the story with `widget` as its `tandem-widget`; its outcome and the summary's lines.
    private static func tell(widget: URL) async throws -> (outcome: TandemExecutable.Outcome, stages: [[String: Any]]) {
        let scratch = try TemporaryDirectory()
        let summary = scratch.url.appendingPathComponent("summary.jsonl")
        let outcome = try await TandemExecutable.run(
            program: script, [try TandemExecutable.locate().path, widget.path],
            environment: ["TANDEM_DEMO_SUMMARY": summary.path, "TMPDIR": scratch.url.path, "TANDEM_DEMO_FAST_PASSWORD_HASHING": "1",
                          // Beside the other suites the machine is busy: the push stage's 2 s goal is make demo's and make bench's.
                          "TANDEM_DEMO_TIMING_GOALS": "0"])
        let lines = (try? String(contentsOf: summary, encoding: .utf8)) ?? ""
        let stages = lines.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        return (outcome, stages)
    }
}
