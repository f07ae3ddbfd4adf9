import Foundation

/// The paths of the server's resources that the SDK calls, built in one place for both sides:
/// the server routes and links them, the client requests them. Every segment is percent-encoded
/// (``FormEncoding/escape(_:)``).
public enum APIPath {
    /// `GET /v1/apps/{clientID}/configuration`: an app's public configuration document.
    public static func appConfiguration(clientID: String) -> String {
        "/v1/apps/\(FormEncoding.escape(clientID))/configuration"
    }

    /// `GET /v1/destinations`: the destinations listing.
    public static let destinations = "/v1/destinations"

    /// `GET /v1/destinations/{destination}/{entitySet}`: one entity set's rows, with `limit`
    /// (and `offset`) when given.
    public static func entitySet(destination: String, entitySet: String, limit: Int? = nil, offset: Int? = nil) -> String {
        let path = "\(destinations)/\(FormEncoding.escape(destination))/\(FormEncoding.escape(entitySet))"
        let query = FormEncoding.query([("limit", limit.map(String.init)), ("offset", offset.map(String.init))])
        return query.isEmpty ? path : path + "?" + query
    }

    /// `POST /v1/events`: an analytics batch (``EventBatchRules``).
    public static let events = "/v1/events"
}
