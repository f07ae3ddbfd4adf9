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
/// A row's state at a date is the newest of: a waiting request for its item, and a result for its
/// item or for a request id its buttons would write (which finds the refusal of a request the
/// host could not read, whose item it never learnt). A waiting request is
/// ``WidgetActionState/pending(_:)`` for ``executionWindow`` after the tap, while the app
/// executes it; then ``WidgetActionState/waiting(_:)`` (the app sends it when it next runs) until
/// its expiry; then ``WidgetActionState/expired``.
struct WidgetActionStates: Sendable {
    /// How long a tap may take to execute in the app's process, where the system runs it on a
    /// phone: a request still in the container after this waits for the app's next run.
    static let executionWindow: TimeInterval = 5

    private enum Event {
        case result(at: Date, WidgetActionState)
        case request(ActionRequest)

        var at: Date {
            switch self {
            case .result(let at, _): at
            case .request(let request): request.createdAt
            }
        }

        func state(at date: Date) -> WidgetActionState {
            switch self {
            case .result(_, let state): return state
            case .request(let request):
                if request.isExpired(at: date) { return .expired }
                if date < request.createdAt.addingTimeInterval(WidgetActionStates.executionWindow) { return .pending(request.draft.action) }
                return .waiting(request.draft.action)
            }
        }
    }

    private var byItem: [String: Event] = [:]
    private var byRequest: [String: Event] = [:]

    /// No actions known.
    init() {}

    /// The states of the `waiting` requests and the `results`.
    init(waiting: [ActionRequest], results: [ActionResult]) {
        for result in results {
            let state = Self.state(of: result.outcome, action: result.draft?.action ?? .approve)
            record(.result(at: result.at, state), request: result.id, item: result.draft.map(Self.key))
        }
        for request in waiting {
            record(.request(request), request: request.id, item: Self.key(request.draft))
        }
    }

    /// The state of `action`'s item at `date`, or `nil` when nothing was done to it lately.
    func state(of action: WidgetRowAction, at date: Date) -> WidgetActionState? {
        var newest = byItem[Self.key(action.destination, action.entitySet, action.item)]
        for verb in ItemAction.allCases {
            let id = ActionRequest.id(action.address, action: verb, etag: action.etag)
            if let event = byRequest[id], event.at > newest?.at ?? .distantPast { newest = event }
        }
        return newest?.state(at: date)
    }

    /// The dates after `date` at which a waiting request's state changes by itself (pending to
    /// waiting, waiting to expired), in order: the timeline shows each change as it comes.
    func changes(after date: Date) -> [Date] {
        var dates = Set<Date>()
        for case .request(let request) in byRequest.values {
            for change in [request.createdAt.addingTimeInterval(Self.executionWindow), request.expiresAt] where change > date {
                dates.insert(change)
            }
        }
        return dates.sorted()
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
            waiting: container.actions.waiting(sealingKey: sealingKey), results: container.actions.results(sealingKey: sealingKey, now: now))
    }
}

extension Timeline where Entry == WidgetContentEntry {
    /// The timeline with each actionable row's state from `states` at its entry's date, and its
    /// step-up mark from the app's `policy` (the default policy when `nil`). Where a waiting
    /// request's state changes by itself before the next entry (the app did not execute it in its
    /// window; it expired), an entry at that moment shows the change.
    func withActionStates(_ states: WidgetActionStates, policy: ActionPolicyDocument?) -> Timeline {
        let policy = policy ?? .default
        var copy = self
        if let first = copy.entries.first?.date {
            for change in states.changes(after: first) {
                guard let shown = copy.entries.last(where: { $0.date <= change }), shown.date != change,
                    shown.content.rows.contains(where: { $0.action != nil })
                else { continue }
                var entry = shown
                entry.date = change
                entry.relevance = nil
                copy.entries.append(entry)
            }
            copy.entries.sort { $0.date < $1.date }
        }
        for entry in copy.entries.indices {
            let date = copy.entries[entry].date
            for row in copy.entries[entry].content.rows.indices {
                guard var action = copy.entries[entry].content.rows[row].action else { continue }
                action.needsApp = policy.requiresStepUp(amount: action.amount.flatMap { Decimal(string: $0) })
                copy.entries[entry].content.rows[row].action = action
                copy.entries[entry].content.rows[row].actionState = states.state(of: action, at: date)
            }
        }
        return copy
    }
}
