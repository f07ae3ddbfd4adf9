import TandemPlatform

// Replacing business data by hand: what a back office does when its records change (the
// phone-day simulation changes a set on a schedule this way).
extension ServerAdministration {
    /// Replaces every row of the entity set `name` of `destination`, creating either when
    /// missing; the set's ETag moves when its rows differ.
    ///
    /// - Parameters:
    ///   - destination: The destination's name.
    ///   - title: The destination's title.
    ///   - name: The entity set's name.
    ///   - rows: Each row as the JSON text of an object.
    /// - Returns: `true` when something was written, `false` when the set already held these rows.
    /// - Throws: ``AdminError/invalidArgument(_:)`` for an empty name; ``AdminError/storage(_:)``.
    @discardableResult
    public func replaceEntitySet(destination: String, title: String, name: String, rows: [String]) async throws(AdminError) -> Bool {
        guard !destination.isEmpty, !name.isEmpty else { throw .invalidArgument("a destination and an entity set need names") }
        do {
            return try await database.businessData.replaceEntitySet(
                destination: destination, title: title, name: name, rows: rows, now: Timestamp(clock.now))
        } catch {
            throw .storage(error)
        }
    }
}
