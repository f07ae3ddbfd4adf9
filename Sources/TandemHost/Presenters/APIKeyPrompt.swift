import TandemAuth

/// Asks whoever sets the device up (an administrator enrolling a kiosk, a managed-app
/// configuration) for an API-key app's key. Onboarding asks once and keeps the key in the vault;
/// a restore asks again only when the server no longer accepts it.
public protocol APIKeyPrompt: Sendable {
    /// The key of the app `configuration` describes.
    ///
    /// - Throws: Whatever ends the prompt, such as the person cancelling.
    func apiKey(for configuration: ClientConfiguration) async throws -> String
}
