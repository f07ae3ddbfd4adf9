#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol
import TandemSharedContainer
import TandemWidgetModel

/// What the widget knows of recent actions, read from the shared container: the requests still
/// waiting for the host and the results it wrote back, by request id and by item.
///
/// A row's state is the newest of: a waiting request for its item (``WidgetActionState/pending(_:)``,
/// or ``WidgetActionState/expired`` once it is past its expiry), and a result for its item or for
/// a request id its buttons would write (which finds the refusal of a request the host could not
/// read, whose item it never learnt).
struct WidgetActionStates: Sendable {
    private struct Event {
        var at: Date
        var state: WidgetActionState
    }

    private var byItem: [String: Event] = [:]
    private var byRequest: [String: Event] = [:]

    /// No actions known.
    init() {}

    /// The states of the `waiting` requests and the `results`, at `now`.
    init(waiting: [ActionRequest], results: [ActionResult], now: Date) {
        for result in results {
            let state = Self.state(of: result.outcome, action: result.draft?.action ?? .approve)
            record(Event(at: result.at, state: state), request: result.id, item: result.draft.map(Self.key))
        }
        for request in waiting {
            let state: WidgetActionState = request.isExpired(at: now) ? .expired : .pending(request.draft.action)
            record(Event(at: request.createdAt, state: state), request: request.id, item: Self.key(request.draft))
        }
    }

    /// The state of `action`'s item, or `nil` when nothing was done to it lately.
    func state(of action: WidgetRowAction) -> WidgetActionState? {
        var newest = byItem[Self.key(action.destination, action.entitySet, action.item)]
        for verb in ItemAction.allCases {
            let id = ActionRequest.id(action.address, action: verb, etag: action.etag)
            if let event = byRequest[id], event.at > newest?.at ?? .distantPast { newest = event }
        }
        return newest?.state
    }

    private mutating func record(_ event: Event, request: String, item: String?) {
        if event.at >= byRequest[request]?.at ?? .distantPast { byRequest[request] = event }
        if let item, event.at >= byItem[item]?.at ?? .distantPast { byItem[item] = event }
    }

    private static func state(of outcome: ActionOutcome, action: ItemAction) -> WidgetActionState {
        switch outcome {
        case .done(let status): .done(status: status)
        case .conflict: .conflict
        case .needsApp: .needsApp(action)
        case .refused(let reason): .refused(reason: reason.rawValue)
        case .expired: .expired
        }
    }

    private static func key(_ draft: ActionRequest.Draft) -> String { key(draft.destination, draft.entitySet, draft.item) }

    private static func key(_ destination: String, _ entitySet: String, _ item: String) -> String {
        [destination, entitySet, item].joined(separator: "\u{0}")
    }
}

extension DataWidgetProvider {
    /// The action states the container holds now; none when the secrets cannot be read.
    func actionStates(now: Date) -> WidgetActionStates {
        guard let sealingKey = try? credentials.credentials()?.sealingKey else { return WidgetActionStates() }
        return WidgetActionStates(
            waiting: container.actions.waiting(sealingKey: sealingKey), results: container.actions.results(sealingKey: sealingKey, now: now),
            now: now)
    }
}

extension Timeline where Entry == WidgetContentEntry {
    /// The timeline with each actionable row's state from `states`, and its step-up mark from
    /// the app's `policy` (the default policy when `nil`).
    func withActionStates(_ states: WidgetActionStates, policy: ActionPolicyDocument?) -> Timeline {
        let policy = policy ?? .default
        var copy = self
        for entry in copy.entries.indices {
            for row in copy.entries[entry].content.rows.indices {
                guard var action = copy.entries[entry].content.rows[row].action else { continue }
                action.needsApp = policy.requiresStepUp(amount: action.amount.flatMap { Decimal(string: $0) })
                copy.entries[entry].content.rows[row].action = action
                copy.entries[entry].content.rows[row].actionState = states.state(of: action)
            }
        }
        return copy
    }
}
