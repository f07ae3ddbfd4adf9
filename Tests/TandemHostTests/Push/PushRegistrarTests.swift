import Foundation
import TandemAuth
import TandemPlatform
import TandemProtocol
import TandemSharedContainer
import TandemTestSupport
import Testing

@testable import TandemHost

/// The host registers its own push token and the one the widget extension left in the shared
/// container, with its own token, and withdraws them; what the server refuses is an error.
@Suite("Push registrar")
struct PushRegistrarTests {
    @Test func theHostSendsBothTokensInHexWithItsOwnTokenAndWithdrawsThem() async throws {
        let home = try TemporaryDirectory()
        let sharedSecrets = try FileSecretStorage(directory: home.url.appendingPathComponent("shared-secrets"))
        let container = try SharedContainer(directory: home.url.appendingPathComponent("container"))
        let sealingKey = try SharedSealingKey.provision(in: sharedSecrets)
        // The widget extension's push handler left its token.
        try container.widgetPushToken.write(Data(repeating: 0xCD, count: 32), sealingKey: sealingKey)

        let server = RegistryServer()
        try await PushRegistrar.register(
            deviceID: "phone-1", environment: .production, hostToken: Data([0x00, 0x0f, 0xa0] + Array(repeating: 0xab, count: 29)),
            widgetsToken: try container.widgetPushToken.read(sealingKey: sealingKey),
            widgets: [PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 4, fields: ["OrderID"], delivery: .direct)],
            timeZone: "Europe/Berlin", with: server.client, tokens: HostToken())
        let put = try #require(server.requests.first)
        #expect(put.method == .put && put.url.absoluteString == "https://api.test/v1/push/devices/phone-1")
        #expect(put.headers["Authorization"] == "Bearer at_host")
        let body = try JSONDecoder().decode(PushDeviceTokensDocument.self, from: put.body ?? Data())
        #expect(body == PushDeviceTokensDocument(
            environment: .production, hostToken: "000fa0" + String(repeating: "ab", count: 29), widgetsToken: String(repeating: "cd", count: 32),
            widgets: [PushWidgetSubscription(destination: "sales", entitySet: "Orders", rows: 4, fields: ["OrderID"], delivery: .direct)],
            timeZone: "Europe/Berlin"))
        let object = try #require(try JSONSerialization.jsonObject(with: put.body ?? Data()) as? [String: Any])
        #expect(Set(object.keys) == ["environment", "host_token", "widgets_token", "widgets", "time_zone"], "the wire names")

        try await PushRegistrar.withdraw(deviceID: "phone-1", with: server.client, tokens: HostToken())
        #expect(server.requests.last?.method == .delete && server.requests.last?.url.path == "/v1/push/devices/phone-1")
    }

    @Test func nothingToRegisterOrATokenOfAnImpossibleLengthIsRefusedBeforeAnyRequest() async throws {
        let server = RegistryServer()
        await #expect(throws: AuthError.invalidConfiguration("no push token to register")) {
            try await PushRegistrar.register(deviceID: "phone-1", environment: .sandbox, hostToken: nil, widgetsToken: nil, with: server.client, tokens: HostToken())
        }
        await #expect(throws: AuthError.self) {
            try await PushRegistrar.register(deviceID: "phone-1", environment: .sandbox, hostToken: Data(count: 3), widgetsToken: nil, with: server.client, tokens: HostToken())
        }
        #expect(server.requests.isEmpty)
    }

    @Test func aRefusalIsAnError() async throws {
        let server = RegistryServer(status: 403)
        await #expect(throws: AuthError.self) {
            try await PushRegistrar.register(
                deviceID: "phone-1", environment: .production, hostToken: Data(count: 32), widgetsToken: nil, with: server.client, tokens: HostToken())
        }
        #expect(server.requests.count == 1)
    }
}

/// The host's token provider, with one fixed token.
private struct HostToken: AccessTokenProvider {
    func accessToken() async throws(AuthError) -> String { "at_host" }
    func refreshedAccessToken(replacing staleAccessToken: String) async throws(AuthError) -> String { "at_host" }
}

/// Answers every request with `status` and keeps what it was sent.
private final class RegistryServer: HTTPTransport {
    private let seen = Locked<[HTTPRequest]>([])
    private let status: Int

    init(status: Int = 200) {
        self.status = status
    }

    var requests: [HTTPRequest] { seen.withLock { $0 } }

    var client: AppClient {
        let configuration = ClientConfiguration(
            serverURL: URL(string: "https://api.test")!, clientID: "tandem-demo", redirectURI: URL(string: "acme://oauth/callback")!,
            urlScheme: "acme")
        return AppClient(configuration: configuration, role: "host", appVersion: "1.0", transport: self)
    }

    func send(_ request: HTTPRequest) async throws(AuthError) -> HTTPResponse {
        seen.withLock { $0.append(request) }
        return HTTPResponse(status: status, body: status == 200 ? Data(#"{"device_id":"phone-1","environment":"production","kinds":["host"]}"#.utf8) : Data())
    }
}
