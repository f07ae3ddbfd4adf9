import Foundation
import HTTPTypes
import Hummingbird

/// Identifies a caller by its app's API key, as resource servers call: `X-API-Key: tdk_…`, or
/// HTTP Basic `client_id:api_key` (then the client id must be the key's app).
///
/// Used where the app itself calls, never a user: `/oauth/introspect` and the resource servers'
/// writes of business data. Neither the app's security mode nor its role is checked here: each
/// endpoint decides what the app may do (``AppStore/resourceAudiences(clientID:)``).
enum APIKeyCaller {
    /// The client id of the valid, unrevoked API key `request` carries, or `nil` when it carries
    /// none, an unknown or revoked one, or (with Basic) another app's.
    static func clientID(of request: Request, apps: AppStore) async throws(StorageError) -> String? {
        var presented: (clientID: String?, key: String)?
        if let key = request.headers[RequestAuthorizer.apiKeyHeader] {
            presented = (nil, key)
        } else if let authorization = request.headers[.authorization], authorization.lowercased().hasPrefix("basic "),
                  let decoded = Data(base64Encoded: String(authorization.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
                  let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":") {
            let clientID = String(text[..<colon]).removingPercentEncoding ?? ""
            let key = String(text[text.index(after: colon)...]).removingPercentEncoding ?? ""
            presented = (clientID, key)
        }
        guard let presented, presented.key.hasPrefix(SecretToken.Kind.apiKey.rawValue),
              let record = try await apps.apiKey(hash: SecretToken.hash(presented.key)),
              record.revokedAt == nil
        else { return nil }
        if let clientID = presented.clientID, clientID != record.clientID { return nil }
        return record.clientID
    }
}
