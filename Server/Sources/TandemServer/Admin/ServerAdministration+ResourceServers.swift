// `tandem admin set-resource-server`: who may introspect tokens, and which.
extension ServerAdministration {
    /// Registers an app as a resource server for `audiences`, so its API keys may call
    /// `/oauth/introspect` about tokens of those audiences; `nil` or an empty set unregisters it.
    /// Apps are no resource servers until registered: an API key shipped inside an app must not
    /// learn about other people's tokens.
    ///
    /// ```swift
    /// try await admin.setResourceServer(clientID: "billing-api", audiences: [OAuthScope.apiAudience])
    /// ```
    ///
    /// - Throws: ``AdminError/invalidArgument(_:)`` for an empty audience or one with spaces;
    ///   ``AdminError/unknownApp(_:)`` for an unknown client id.
    public func setResourceServer(clientID: String, audiences: Set<String>?) async throws(AdminError) {
        for audience in audiences ?? [] where audience.isEmpty || audience.contains(where: \.isWhitespace) {
            throw .invalidArgument("audience \(audience.debugDescription) must be non-empty without spaces")
        }
        do {
            try await database.apps.setResourceAudiences(audiences, clientID: clientID)
        } catch .notFound {
            throw .unknownApp(clientID)
        } catch {
            throw .storage(error)
        }
    }
}
