import TandemPlatform
import TandemProtocol

// Widget actions: which entity sets can be decided, by which apps and people, and what needs a
// step-up.
extension ServerAdministration {
    /// Makes an entity set actionable under `set`'s rules, or changes them: its items named by
    /// `set.idField`, decided only through the hosts of `set.apps`, by the people
    /// `set.approvers` names (never an item's own requester), with a step-up above its
    /// threshold. The rows it holds get their `Status` (when absent) and `ETag` at once, later
    /// rows when written.
    ///
    /// - Returns: Whether stored rows changed.
    /// - Throws: ``AdminError/invalidArgument(_:)`` for an empty or unusable name, no app, an
    ///   app that does not exist or signs in with an API key, a stored row without a string id
    ///   (or two with the same); ``AdminError/storage(_:)``.
    @discardableResult
    public func setActionable(_ set: ActionableSet) async throws(AdminError) -> Bool {
        for (what, name) in [("destination", set.destination), ("entity set", set.entitySet)] where !URLSafeName.isValid(name) {
            throw .invalidArgument(URLSafeName.requirement(for: "the \(what) name"))
        }
        for (what, name) in [("id field", set.idField), ("requester field", set.requesterField ?? "-"), ("amount field", set.stepUp.amountField)]
        where !URLSafeName.isValid(name) {
            throw .invalidArgument(URLSafeName.requirement(for: "the \(what)"))
        }
        if let approvers = set.approvers, !approvers.isValid {
            throw .invalidArgument(URLSafeName.requirement(for: "the approvers' field or group"))
        }
        guard !set.apps.isEmpty else { throw .invalidArgument("name at least one app whose host may act on the set's items") }
        do {
            for clientID in set.apps.sorted() {
                guard let app = try await database.apps.app(clientID: clientID) else { throw AdminError.unknownApp(clientID) }
                guard app.securityMode == .oauth else {
                    throw AdminError.invalidArgument("\(clientID) signs in with an API key: only a signed-in user's host can decide items")
                }
            }
            return try await database.actions.setActionable(set, now: Timestamp(clock.now))
        } catch let error as AdminError {
            throw error
        } catch StorageError.invalidRecord(let message) {
            throw .invalidArgument(message)
        } catch {
            throw .storage(error as? StorageError ?? .unavailable("\(error)"))
        }
    }

    /// The rules of an actionable set, or `nil` when it is not actionable.
    public func actionableSet(destination: String, entitySet: String) async throws(AdminError) -> ActionableSet? {
        do {
            return try await database.actions.actionableSet(destination: destination, entitySet: entitySet)
        } catch {
            throw .storage(error)
        }
    }

    /// Puts the user `username` in `group` (or leaves them there), for an approver rule that
    /// names the group.
    ///
    /// - Returns: Whether they were not in it before.
    /// - Throws: ``AdminError/unknownUser(_:)``; ``AdminError/invalidArgument(_:)`` for a group
    ///   name that is not letters, digits, `.`, `_` and `-`; ``AdminError/storage(_:)``.
    @discardableResult
    public func addToGroup(username: String, group: String) async throws(AdminError) -> Bool {
        let user = try await existingUser(username, group: group)
        do {
            return try await database.accounts.addToGroup(userID: user.id, group: group, now: Timestamp(clock.now))
        } catch {
            throw .storage(error)
        }
    }

    /// Takes the user `username` out of `group`.
    ///
    /// - Returns: Whether they were in it.
    @discardableResult
    public func removeFromGroup(username: String, group: String) async throws(AdminError) -> Bool {
        let user = try await existingUser(username, group: group)
        do {
            return try await database.accounts.removeFromGroup(userID: user.id, group: group)
        } catch {
            throw .storage(error)
        }
    }

    private func existingUser(_ username: String, group: String) async throws(AdminError) -> UserRecord {
        guard URLSafeName.isValid(group) else { throw .invalidArgument(URLSafeName.requirement(for: "the group name")) }
        let user: UserRecord?
        do {
            user = try await database.accounts.user(named: username)
        } catch {
            throw .storage(error)
        }
        guard let user else { throw .unknownUser(username) }
        return user
    }
}
