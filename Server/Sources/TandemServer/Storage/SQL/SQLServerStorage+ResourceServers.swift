import Foundation
import SQLKit

// Resource servers: the apps allowed to introspect tokens, and for which audiences.
extension SQLServerStorage {
    /// Stores the audiences space-separated in `apps.resource_audiences` (`NULL` for none).
    public func setResourceAudiences(_ audiences: Set<String>?, clientID: String) async throws(StorageError) {
        let text = audiences.flatMap { $0.isEmpty ? nil : $0.sorted().joined(separator: " ") }
        let updated = try await perform("registering a resource server") { database in
            try await database.raw("""
                UPDATE apps SET resource_audiences = \(bind: text) WHERE client_id = \(bind: clientID) RETURNING client_id
                """).all().count
        }
        guard updated == 1 else { throw .notFound("app \(clientID.debugDescription)") }
    }

    /// Reads `apps.resource_audiences`.
    public func resourceAudiences(clientID: String) async throws(StorageError) -> Set<String>? {
        try await perform("reading a resource server") { database in
            guard let row = try await database.raw("SELECT resource_audiences FROM apps WHERE client_id = \(bind: clientID)").first(),
                  let text = try row.decode(column: "resource_audiences", as: String?.self)
            else { return nil }
            let audiences = Set(text.split(separator: " ").map(String.init))
            return audiences.isEmpty ? nil : audiences
        }
    }
}
