import TandemProtocol

/// Per-app settings beyond ``AppRecord`` that the configuration endpoint publishes: today the
/// vault passcode policy.
public protocol AppConfigurationStorage: Sendable {
    /// The passcode policy stored for an app, or `nil` when it uses the server's default.
    func passcodePolicy(clientID: String) async throws(StorageError) -> PasscodePolicyDocument?

    /// Stores (or replaces) an app's passcode policy.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func setPasscodePolicy(_ policy: PasscodePolicyDocument, clientID: String, now: Timestamp) async throws(StorageError)
}
