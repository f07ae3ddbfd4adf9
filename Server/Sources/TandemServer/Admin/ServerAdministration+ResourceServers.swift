import TandemProtocol

// `tandem admin set-resource-server`: who may introspect tokens, and which.
extension ServerAdministration {
    /// Registers an app as a resource server for `audiences`, so its API keys may call
    /// `/oauth/introspect` about tokens of those audiences; `nil` or an empty set unregisters it.
    /// Introspection only: writing business data is a grant of its own (``setWriter(clientID:destinations:)``).
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

// `tandem admin set-writer`: whose API keys may write business data, and where.
extension ServerAdministration {
    /// Lets the API keys of the app `clientID` write the entity sets of `destinations`
    /// (`PUT /v1/destinations/{destination}/{entitySet}`), and no others; an empty set takes
    /// every write away. A grant of its own: introspection (``setResourceServer(clientID:audiences:)``)
    /// writes nothing, and a writer of one back office's destinations cannot overwrite another's.
    ///
    /// ```swift
    /// try await admin.setWriter(clientID: "sales-back-office", destinations: ["sales"])
    /// ```
    ///
    /// - Throws: ``AdminError/invalidArgument(_:)`` for a destination name that is not letters,
    ///   digits, `.`, `_` and `-`, or an app that signs in with OAuth (an app's users never write
    ///   business data); ``AdminError/unknownApp(_:)``.
    public func setWriter(clientID: String, destinations: Set<String>) async throws(AdminError) {
        for destination in destinations where !URLSafeName.isValid(destination) {
            throw .invalidArgument(URLSafeName.requirement(for: "destination name \(destination.debugDescription)"))
        }
        do {
            guard let app = try await database.apps.app(clientID: clientID) else { throw AdminError.unknownApp(clientID) }
            guard app.securityMode == .apiKey || destinations.isEmpty else {
                throw AdminError.invalidArgument("\(clientID) signs in with OAuth: only an API-key app (a back office) writes business data")
            }
            try await database.apps.setWritableDestinations(destinations, clientID: clientID, now: Timestamp(clock.now))
        } catch let error as AdminError {
            throw error
        } catch StorageError.notFound {
            throw .unknownApp(clientID)
        } catch {
            throw .storage(error as? StorageError ?? .unavailable("\(error)"))
        }
    }
}
