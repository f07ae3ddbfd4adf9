import TandemPlatform
import TandemProtocol

// Widget actions: which entity sets can be decided, and what needs a step-up.
extension ServerAdministration {
    /// Makes the entity set `entitySet` of `destination` actionable, its items named by
    /// `idField`; the rows it holds get their `Status` (when absent) and `ETag` at once, later
    /// rows when written.
    ///
    /// - Returns: Whether stored rows changed.
    /// - Throws: ``AdminError/invalidArgument(_:)`` for an empty name or a stored row without a
    ///   string `idField` (or two with the same); ``AdminError/storage(_:)``.
    @discardableResult
    public func setActionable(destination: String, entitySet: String, idField: String) async throws(AdminError) -> Bool {
        guard !destination.isEmpty, !entitySet.isEmpty, !idField.isEmpty else {
            throw .invalidArgument("a destination, an entity set and an id field need names")
        }
        do {
            return try await database.actions.setActionable(destination: destination, entitySet: entitySet, idField: idField, now: Timestamp(clock.now))
        } catch .invalidRecord(let message) {
            throw .invalidArgument(message)
        } catch {
            throw .storage(error)
        }
    }

    /// Sets the action policy of the app `clientID`: actions on items above `policy`'s
    /// threshold need a step-up proof. Served in the app's configuration as `action_policy`.
    ///
    /// - Throws: ``AdminError/unknownApp(_:)``; ``AdminError/storage(_:)``.
    public func setActionPolicy(_ policy: ActionPolicyDocument, clientID: String) async throws(AdminError) {
        do {
            try await database.apps.setActionPolicy(policy, clientID: clientID, now: Timestamp(clock.now))
        } catch .notFound {
            throw .unknownApp(clientID)
        } catch {
            throw .storage(error)
        }
    }
}
