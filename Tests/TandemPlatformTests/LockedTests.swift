import TandemPlatform
import Testing

/// `Locked` is the SDK's one lock: every change made under it is seen by the next holder, copies
/// share one value, and what the body throws comes out with its own type.
struct LockedTests {
    @Test func incrementsFromManyTasksAtOnceAreNeverLost() async {
        let count = Locked(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    for _ in 0..<1_000 { count.withLock { $0 += 1 } }
                }
            }
        }
        #expect(count.withLock { $0 } == 64_000)
    }

    @Test func aCopyGuardsTheSameValue() {
        let original = Locked(["first"])
        let copy = original
        copy.withLock { $0.append("second") }
        #expect(original.withLock { $0 } == ["first", "second"])
    }

    @Test func whatTheBodyReturnsIsReturned() {
        let state = Locked((taken: 0, left: 3))
        let taken = state.withLock { state -> Int in
            state.left -= 1
            state.taken += 1
            return state.taken
        }
        #expect(taken == 1)
        #expect(state.withLock { $0.left } == 2)
    }

    private enum Refusal: Error, Equatable {
        case empty
    }

    @Test func aThrownErrorKeepsItsTypeAndTheChangesMadeBeforeIt() {
        let stock = Locked(1)
        func take() throws(Refusal) -> Int {
            try stock.withLock { (count: inout Int) throws(Refusal) -> Int in
                guard count > 0 else { throw .empty }
                count -= 1
                return count
            }
        }
        #expect(throws: Never.self) { try take() }
        do {
            _ = try take()
            Issue.record("the second take found stock")
        } catch {
            // `error` is a `Refusal` here, not `any Error`: comparing it needs no cast.
            #expect(error == .empty)
        }
        #expect(stock.withLock { $0 } == 0)
    }

    @Test func aLockIsReleasedWhenItsBodyThrows() {
        let value = Locked(0)
        #expect(throws: Refusal.empty) {
            try value.withLock { (value: inout Int) throws(Refusal) in
                value = 5
                throw .empty
            }
        }
        // Taking it again would deadlock if the throw had left it held.
        #expect(value.withLock { $0 } == 5)
    }
}
