import TandemProtocol

// An app's action policy, kept beside its passcode policy.
extension AppStore {
    /// The action policy stored for an app, or `nil` when it uses ``ActionPolicyDocument/default``.
    func actionPolicy(clientID: String) async throws(StorageError) -> ActionPolicyDocument? {
        try await policyDocument(ActionPolicyDocument.self, in: .action, clientID: clientID)
    }

    /// Stores (or replaces) an app's action policy.
    ///
    /// - Throws: ``StorageError/notFound(_:)`` for an unknown client id.
    func setActionPolicy(_ policy: ActionPolicyDocument, clientID: String, now: Timestamp) async throws(StorageError) {
        try await storePolicyDocument(policy, in: .action, clientID: clientID, now: now)
    }
}
