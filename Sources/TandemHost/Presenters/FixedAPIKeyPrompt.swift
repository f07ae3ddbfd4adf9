import TandemAuth

/// An ``APIKeyPrompt`` that always answers with the same key: for tests, for a managed
/// configuration, and for a command-line host given the key in a file or the environment.
public struct FixedAPIKeyPrompt: APIKeyPrompt {
    private let key: String

    /// A prompt that answers `key`.
    public init(_ key: String) {
        self.key = key
    }

    public func apiKey(for configuration: ClientConfiguration) async throws -> String {
        key
    }
}
