import Foundation
import TandemHost
import TandemVault
import Testing

@Suite("Flows run their steps")
struct FlowTests {
    @Test func stepsRunInTheirOrderAndAPhaseAStepHasNoPartInIsSkipped() async throws {
        let fixture = try FlowFixture()
        let log = Recorder<String>()
        let flow = Flow([
            ScriptedStep(name: "configuration", log: log),
            ScriptedStep(name: "vault", phases: [.onboard, .restore], log: log),
            OnboardingOnlyStep(log: log),
            ScriptedStep(name: "settings", log: log),
        ])

        let onboarding = try await flow.run(.onboard, in: fixture.context)
        #expect(log.all == ["configuration", "vault", "welcome", "settings"])
        #expect(onboarding.steps.map(\.step) == ["configuration", "vault", "welcome", "settings"])

        let background = try await flow.run(.background, in: fixture.context)
        #expect(log.all.suffix(2) == ["configuration", "settings"], "vault and welcome have no part in the background")
        #expect(background.result(of: "vault") == .skipped("not part of the background flow"))
        #expect(background.result(of: "welcome") == .skipped("not part of the background flow"), "the protocol's default")
        #expect(background.result(of: "settings") == .completed("ok"))
    }

    @Test func aFailingStepStopsTheFlowWithItsNameAndItsOwnError() async throws {
        let fixture = try FlowFixture()
        let log = Recorder<String>()
        let flow = Flow([
            ScriptedStep(name: "configuration", log: log),
            ScriptedStep(name: "authentication", log: log) { _ in throw ScriptedFailure(code: 7) },
            ScriptedStep(name: "vault", log: log),
        ])
        do {
            try await flow.run(.onboard, in: fixture.context)
            Issue.record("the flow went on past a failing step")
        } catch {
            guard case .stepFailed(let step, let phase, let underlying) = error else {
                Issue.record("expected stepFailed, got \(error)")
                return
            }
            #expect(step == "authentication")
            #expect(phase == .onboard)
            #expect(underlying as? ScriptedFailure == ScriptedFailure(code: 7))
            #expect("\(error)".contains("step authentication failed"))
        }
        #expect(log.all == ["configuration", "authentication"], "the step after the failure never ran")
    }

    @Test func aFailureLocksTheVaultEvenWhenTheStepOpenedIt() async throws {
        let fixture = try FlowFixture()
        let flow = Flow([
            ScriptedStep(name: "vault", log: Recorder()) { context in
                try context.vault.unlock()
                throw VaultError.locked
            },
        ])
        await #expect(throws: FlowError.self) { try await flow.run(.restore, in: fixture.context, keepVaultUnlocked: true) }
        #expect(!fixture.vault.isUnlocked)
    }

    @Test(.timeLimit(.minutes(1))) func cancellationMidStepLeavesTheVaultLockedAndNothingWritten() async throws {
        let fixture = try FlowFixture()
        let log = Recorder<String>()
        let flow = Flow([
            ScriptedStep(name: "vault", log: log) { context in
                try context.vault.unlock()
                return .completed("unlocked")
            },
            ScriptedStep(name: "settings", log: log) { context in
                try await context.clock.sleep(for: .seconds(600))
                try context.vault.set(Data("settings".utf8), forKey: "settings")
                return .completed("saved")
            },
            ScriptedStep(name: "extension access", log: log),
        ])
        let run = Task { try await flow.run(.onboard, in: fixture.context, keepVaultUnlocked: true) }
        try await fixture.clock.waitForSleepers()  // the settings step is under way
        #expect(fixture.vault.isUnlocked, "the settings step is running with the vault open")
        run.cancel()

        let result = await run.result
        guard case .failure(let error as FlowError) = result, case .cancelled(let step, .onboard) = error else {
            Issue.record("expected a cancellation, got \(result)")
            return
        }
        #expect(step == "settings")
        #expect(log.all == ["vault", "settings"])
        #expect(!fixture.vault.isUnlocked, "the flow locked the vault on its way out")
        try fixture.vault.unlock()
        #expect(try fixture.vault.data(forKey: "settings") == nil, "the interrupted step wrote nothing")
        #expect(try fixture.vault.status().exists)
    }

    @Test(.timeLimit(.minutes(1))) func aCancellationAStepFinishesThroughStopsTheFlowBeforeTheNextStep() async throws {
        let fixture = try FlowFixture()
        let log = Recorder<String>()
        let flow = Flow([
            ScriptedStep(name: "first", log: log) { context in
                // Waits until cancelled, and then does not throw: it finishes its work.
                try? await context.clock.sleep(for: .seconds(600))
                return .completed("finished its work although cancelled")
            },
            ScriptedStep(name: "second", log: log),
        ])
        let run = Task { try await flow.run(.background, in: fixture.context) }
        try await fixture.clock.waitForSleepers()  // the first step is under way
        run.cancel()
        let result = await run.result
        guard case .failure(let error as FlowError) = result, case .cancelled(nil, .background) = error else {
            Issue.record("expected a cancellation between steps, got \(result)")
            return
        }
        #expect(log.all == ["first"])
        #expect("\(error)" == "background flow: cancelled between steps")
    }

    @Test(.timeLimit(.minutes(1))) func progressEventsComeInOrderWithDurations() async throws {
        let fixture = try FlowFixture()
        let events = Recorder<FlowEvent>()
        let flow = Flow([
            ScriptedStep(name: "slow", log: Recorder()) { context in
                try await context.clock.sleep(for: .seconds(60))
                return .completed("waited")
            },
            ScriptedStep(name: "quick", log: Recorder()),
        ])
        let clock = fixture.clock
        let mover = Task {
            try await clock.waitForSleepers()
            clock.advance(by: .seconds(60))
        }
        let report = try await flow.run(.restore, in: fixture.context) { events.append($0) }
        try await mover.value

        let names = events.all.map { event -> String in
            switch event {
            case .started(_, let steps): "started \(steps.joined(separator: ","))"
            case .stepStarted(let step, _): "start \(step)"
            case .stepFinished(let step, _, _, _): "finish \(step)"
            case .stepFailed(let step, _, _, _): "fail \(step)"
            case .finished: "finished"
            }
        }
        #expect(names == ["started slow,quick", "start slow", "finish slow", "start quick", "finish quick", "finished"])
        guard case .stepFinished(_, .restore, .completed("waited"), let slow) = events.all[2] else {
            Issue.record("unexpected event \(events.all[2])")
            return
        }
        // The slow step took the minute the clock moved (to the Date's precision); the quick one none.
        #expect(slow > .seconds(60) - .milliseconds(1) && slow < .seconds(60) + .milliseconds(1))
        #expect(report.steps.last?.duration == .zero)
        guard case .finished(.restore, let total) = events.all.last else { return }
        #expect(total >= slow)
        #expect(report.duration == total)
        #expect(report.steps.map(\.duration).reduce(.zero, +) <= total)
    }

    @Test func theBackgroundFlowAlwaysLocksAndAForegroundFlowMayKeepTheVaultOpen() async throws {
        let fixture = try FlowFixture()
        let unlock = Flow([ScriptedStep(name: "vault", log: Recorder()) { context in
            try context.vault.unlock()
            return .completed("unlocked")
        }])
        try await unlock.run(.restore, in: fixture.context, keepVaultUnlocked: true)
        #expect(fixture.vault.isUnlocked)
        try await unlock.run(.restore, in: fixture.context)
        #expect(!fixture.vault.isUnlocked)
        try await unlock.run(.background, in: fixture.context, keepVaultUnlocked: true)
        #expect(!fixture.vault.isUnlocked)
    }
}

/// A step that implements onboarding only, keeping the protocol's default for the other phases.
private struct OnboardingOnlyStep: Step {
    let name = "welcome"
    let log: Recorder<String>

    func onboard(in context: FlowContext) async throws -> StepResult {
        log.append(name)
        return .completed("welcomed")
    }
}
