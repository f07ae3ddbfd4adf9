// The Swift blocks of TandemAuth's, TandemPlatform's and TandemProtocol's DocC articles, each
// verbatim in a body; the names they take from the app around them are parameters.
import Foundation
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemURLSession

// TandemAuth.docc/BindingTokensToAKey.md
func bindingTokensToAKey(
    configuration: ClientConfiguration, http: HTTPClient, hostSecrets: any SecretStorage, sharedSecrets: any SecretStorage,
    userTokens: TokenSet, container: SharedContainer, share: AuxiliaryShare, client: AppClient
) async throws {
    // The host (TandemHost's ExtensionAccessStep does this when the app requires DPoP):
    let oauth = OAuthClient(configuration: configuration, client: http, dpopKey: DPoPKeyStore.host(in: hostSecrets))
    let grant = try await oauth.exchangeForExtensionGrant(
        accessToken: userTokens.accessToken, subjectTokenIsBound: userTokens.isDPoPBound,
        dpopKey: DPoPKeyStore.widgets(in: sharedSecrets))

    // A widget (SharedSecretCredentials in TandemWidgets gives it this key):
    let session = ExtensionSession(
        container: container, share: share, client: client,
        dpopKey: DPoPKeyStore.widgets(in: sharedSecrets, makesMissingKey: false))
    _ = (grant, session)
}

// TandemAuth.docc/RefreshingTokensAcrossProcesses.md
enum WidgetState { case signedOut, ready(HTTPClient) }

func refreshingTokensAcrossProcesses(appGroupURL: URL, sharedSecrets: any SecretStorage, configuration: ClientConfiguration) throws -> WidgetState {
    // In a widget (direct mode):
    let container = try SharedContainer(directory: appGroupURL)
    guard let share = try AuxiliaryShare.load(from: sharedSecrets) else { return .signedOut }
    let coordinator = RefreshCoordinator.extensionGrant(
        container: container, share: share,
        oauth: OAuthClient(configuration: configuration, client: HTTPClient(transport: URLSessionTransport())))
    // the same as:
    // RefreshCoordinator(store: SharedGrantStore(container: container, share: share), leases: container.leases,
    //                    oauth: oauth, leaseName: RefreshCoordinator.extensionGrantLeaseName,
    //                    onReauthenticationRequired: RefreshCoordinator.markReauthenticationRequired(in: container))
    let client = HTTPClient(transport: URLSessionTransport(), middlewares: [BearerTokenMiddleware(provider: coordinator)])
    return .ready(client)
}

// TandemAuth.docc/TandemAuth.md
func tandemAuth(installID: String, coordinator: RefreshCoordinator) -> HTTPClient {
    let client = HTTPClient(transport: URLSessionTransport(), middlewares: [
        CorrelationIDMiddleware(),
        ClientHeadersMiddleware(appID: "com.example.app", appVersion: "1.2", deviceID: installID),
        BearerTokenMiddleware(provider: coordinator),   // or APIKeyMiddleware in API-key mode
        LoggingMiddleware(),                            // innermost: logs what is really sent
    ])
    return client
}

// TandemPlatform.docc/TandemPlatform.md
func showLastRowsAsUnavailable() {}

func tandemPlatform() throws {
    var share: AuxiliaryShare?
    let sharedSecrets = KeychainSecretStorage(service: "com.example.app.extensions",
                                              accessGroup: "TEAMID.com.example.shared")
    do {
        share = try AuxiliaryShare.load(from: sharedSecrets)
    } catch .deviceLocked {
        showLastRowsAsUnavailable()      // not signed out: the phone has not been unlocked yet
    }
    _ = share
}

// TandemProtocol.docc/TandemProtocol.md
func tandemProtocol(randomBytes: Data, data: Data) throws {
    let verifier = Base64URL.encode(randomBytes)             // 43 characters for 32 bytes
    let challenge = PKCE.challenge(for: verifier)            // S256
    PKCE.verify(verifier, matches: challenge)                // true

    let body = try JSONDecoder().decode(TokenResponse.self, from: data)
    _ = body
}
