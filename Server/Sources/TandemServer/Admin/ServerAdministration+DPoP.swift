extension ServerAdministration {
    /// Requires DPoP for an app's token requests (every grant bound to a key on the device), or
    /// stops requiring it; grants already bound stay bound. What the cockpit's "Require DPoP"
    /// switch does, for scripts.
    ///
    /// - Throws: ``AdminError/unknownApp(_:)``; ``AdminError/storage(_:)``.
    public func setDPoPRequired(clientID: String, required: Bool) async throws(AdminError) {
        let found: Bool
        do {
            found = try await database.apps.setDPoPRequired(clientID: clientID, required: required)
        } catch {
            throw .storage(error)
        }
        guard found else { throw .unknownApp(clientID) }
    }
}
