/// Asks the user a yes-or-no question ("Allow widgets to show your data?").
public protocol ConfirmationPresenter: Sendable {
    /// `true` when the user agreed.
    func confirm(_ question: String) async -> Bool
}

/// A ``ConfirmationPresenter`` with a fixed answer, for tests and headless hosts.
public struct FixedConfirmation: ConfirmationPresenter {
    private let answer: Bool

    /// A presenter that always answers `answer`.
    public init(_ answer: Bool) {
        self.answer = answer
    }

    public func confirm(_ question: String) async -> Bool { answer }
}
