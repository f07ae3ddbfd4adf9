import TandemSharedContainer

/// What one run did with one action request: the outcome written back for the widget, or `nil`
/// when the request stays pending for a later run (the server was out of reach).
public struct ActionExecutionOutcome: Sendable, Equatable {
    /// The request's id.
    public var id: String
    /// The request as the widget wrote it; `nil` for a file that did not open.
    public var draft: ActionRequest.Draft?
    /// The outcome written back, or `nil` when the request is still pending.
    public var outcome: ActionOutcome?
    /// Whether the server's data changed (or was found changed): the widgets' rows are refetched.
    public var changedData: Bool {
        switch outcome {
        case .done, .conflict: true
        default: false
        }
    }

    /// An outcome of request `id`.
    public init(id: String, draft: ActionRequest.Draft?, outcome: ActionOutcome?) {
        self.id = id
        self.draft = draft
        self.outcome = outcome
    }
}
