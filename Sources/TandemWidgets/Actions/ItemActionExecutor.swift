import TandemSharedContainer

/// Executes a widget's action request in the process that holds the grant: the host app's.
///
/// On iOS the system may run a widget button's intent in the app's process (see
/// `ItemActionIntent`): there the intent hands the request it just wrote to the executor the app
/// installed, which executes it at once with the host's grant instead of leaving it for the
/// host's next background run. TandemHost's `HostActionExecutor` is the one to install.
public protocol ItemActionExecutor: Sendable {
    /// Executes `request`, which is waiting in the shared container, and writes its result back
    /// for the widgets.
    ///
    /// - Returns: The outcome written back, or `nil` when the request stays waiting (the vault
    ///   does not open now, the server is out of reach): the host's next run executes it.
    func execute(_ request: ActionRequest) async -> ActionOutcome?
}
