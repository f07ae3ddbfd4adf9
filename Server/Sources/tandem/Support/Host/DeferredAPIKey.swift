import Foundation
import TandemAuth
import TandemHost
import TandemTool

/// An `APIKeyPrompt` for `tandem host onboard` and `tandem host unlock`: an API-key app's key
/// is read from `--api-key-file` or `TANDEM_API_KEY` only when the flow asks for it (never from
/// the command line, where every local account could read it).
struct DeferredAPIKey: APIKeyPrompt {
    let file: String?

    func apiKey(for configuration: ClientConfiguration) async throws -> String {
        guard let key = try SecretInput.read(option: nil, optionName: "--api-key", file: file, environmentVariable: "TANDEM_API_KEY") else {
            throw CommandFailure("\(configuration.clientID) is an API-key app: give its key with --api-key-file or $TANDEM_API_KEY")
        }
        return key
    }
}
