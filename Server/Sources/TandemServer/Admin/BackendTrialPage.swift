/// What the server answers a user for the first page of a backend destination's set, fetched by
/// an operator trying the destination (``ServerAdministration/fetchBackendPage(destination:entitySet:username:clientID:issuer:limit:outbound:secret:)``):
/// the status and the JSON body, a page or the error the user's widget would get.
public struct BackendTrialPage: Sendable, Hashable {
    /// `200`, or the error's status (`403`, `502`, `503`, …).
    public let status: Int
    /// The page (`{"items":[…],…}`) or the error (`{"error":…,"error_description":…}`).
    public let body: String
}
