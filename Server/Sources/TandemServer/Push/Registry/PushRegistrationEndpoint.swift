import Foundation
import Hummingbird
import Logging
import TandemPlatform
import TandemProtocol

/// `PUT /v1/push/devices/{deviceID}` and `DELETE /v1/push/devices/{deviceID}`: the host app
/// registers where the server's pushes reach it and its widgets, and withdraws that on sign-out.
///
/// Only the host's own token (audience `tandem`, scope `data.write`) registers: the widgets'
/// grant is read-only, so the widget extension hands its push token to the host through the
/// shared container. The body is `{"environment": "production", "host_token": "…",
/// "widgets_token": "…", "widgets": [{"destination": "sales", "entity_set": "Orders", "rows": 3,
/// "fields": ["OrderID", "Status"], "delivery": "direct"}], "time_zone": "Europe/Berlin"}` with
/// either token or both, lowercase or uppercase hex, and what the device's placed widgets show
/// (``TandemProtocol/PushWidgetSubscription``): only changes to those sets are pushed to it. It
/// becomes the device's whole registration for this app and user (a kind left out is removed,
/// widgets left out are no longer pushed). Each registration keeps the grant it was made with
/// and ends with it.
struct PushRegistrationEndpoint: Sendable {
    /// Checks credentials.
    let authorizer: RequestAuthorizer
    /// The push registry.
    let registry: PushRegistryStore
    /// The largest body accepted.
    let maxBodySize: Int
    /// Receives failures, never a token.
    let logger: Logger
    /// When registrations are made.
    let clock: any WallClock

    /// Adds the routes to `router`.
    func register(on router: Router<TandemRequestContext>) {
        router.put("\(APIPath.pushDevices)/:deviceID") { request, context in
            try await replace(request, deviceID: PathParameter.decoded(context.parameters.get("deviceID")))
        }
        router.delete("\(APIPath.pushDevices)/:deviceID") { request, context in
            try await remove(request, deviceID: PathParameter.decoded(context.parameters.get("deviceID")))
        }
    }

    private func replace(_ request: Request, deviceID: String) async throws(HTTPError) -> Response {
        let (principal, userID, familyID) = try await host(of: request, deviceID: deviceID)
        let body = try await RequestBodyReader.collectJSON(request, limit: maxBodySize)
        let document = try Self.parse(Data(body.readableBytesView))
        let (environment, tokens) = (document.environment, document.tokens)
        let now = Timestamp(clock.now)
        let registrations = tokens.map { kind, token in
            PushRegistration(
                clientID: principal.clientID, userID: userID, deviceID: deviceID, kind: kind, environment: environment, token: token,
                familyID: familyID, updatedAt: now, timeZone: document.timeZone)
        }
        do {
            try await registry.replace(
                registrations, subscriptions: document.widgets, clientID: principal.clientID, userID: userID, deviceID: deviceID)
        } catch {
            logger.error("registering push tokens failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        logger.info("push tokens registered", metadata: [
            "client_id": "\(principal.clientID)", "device": "\(deviceID)", "kinds": "\(tokens.keys.map(\.rawValue).sorted())",
            "widgets": "\(document.widgets.count)",
        ])
        return JSONResponse.make(
            PushDeviceRegistration(deviceID: deviceID, environment: environment, kinds: PushRegistration.Kind.allCases.filter { tokens[$0] != nil }),
            noStore: true)
    }

    private func remove(_ request: Request, deviceID: String) async throws(HTTPError) -> Response {
        let (principal, userID, _) = try await host(of: request, deviceID: deviceID)
        do {
            try await registry.remove(clientID: principal.clientID, userID: userID, deviceID: deviceID)
        } catch {
            logger.error("removing push tokens failed", metadata: ["error": "\(error)"])
            throw .unavailable
        }
        return Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }

    /// The host's principal, its user and its grant, for a device id that can be one; anything
    /// else is refused (the credential first, then the id).
    private func host(of request: Request, deviceID: String) async throws(HTTPError) -> (RequestPrincipal, String, String) {
        let principal = try await authorizer.check(
            request, requiring: OAuthScope.dataWrite, audiences: [OAuthScope.apiAudience], logger: logger)
        guard let userID = principal.subject, let familyID = principal.familyID else {
            throw HTTPError(
                ResourceErrorCode.insufficientScope, "push tokens are registered by a signed-in host, with its own token",
                challenge: #"Bearer realm="tandem", error="insufficient_scope", scope="\#(OAuthScope.dataWrite)""#)
        }
        guard URLSafeName.isValid(deviceID) else { throw HTTPError(ResourceErrorCode.invalidRequest, URLSafeName.requirement(for: "device id")) }
        return (principal, userID, familyID)
    }

    /// A registration body, checked.
    struct ParsedRegistration: Sendable, Equatable {
        /// The tokens' environment.
        var environment: PushEnvironment
        /// The tokens by kind, lowercase hex.
        var tokens: [PushRegistration.Kind: String]
        /// What the device's widgets show.
        var widgets: [PushWidgetSubscription]
        /// The device's time zone, a known IANA name; `nil` for UTC.
        var timeZone: String?
    }

    /// The environment, the tokens by kind, the widgets and the time zone of a body
    /// (``PushDeviceTokensDocument``), or a 400 saying what is wrong.
    static func parse(_ body: Data) throws(HTTPError) -> ParsedRegistration {
        let document: PushDeviceTokensDocument
        do {
            document = try JSONDecoder().decode(PushDeviceTokensDocument.self, from: body)
        } catch {
            throw HTTPError(
                ResourceErrorCode.invalidRequest,
                #"the body must be {"environment": "sandbox"|"production", "host_token": …, "widgets_token": …, "widgets": […], "time_zone": …}"#)
        }
        var tokens: [PushRegistration.Kind: String] = [:]
        for (kind, value) in [(PushRegistration.Kind.host, document.hostToken), (.widgets, document.widgetsToken)] {
            guard let value else { continue }
            guard let token = PushTokenRules.normalized(value) else {
                let bytes = PushTokenRules.bytes
                throw HTTPError(ResourceErrorCode.invalidRequest, "\(kind.rawValue)_token must be \(bytes.lowerBound)–\(bytes.upperBound) bytes in hex")
            }
            tokens[kind] = token
        }
        guard !tokens.isEmpty else { throw HTTPError(ResourceErrorCode.invalidRequest, "give host_token, widgets_token or both") }
        let widgets = document.widgets ?? []
        guard widgets.count <= PushWidgetSubscription.maximumCount else {
            throw HTTPError(ResourceErrorCode.invalidRequest, "at most \(PushWidgetSubscription.maximumCount) widgets")
        }
        for widget in widgets {
            guard URLSafeName.isValid(widget.destination), URLSafeName.isValid(widget.entitySet) else {
                throw HTTPError(ResourceErrorCode.invalidRequest, URLSafeName.requirement(for: "a widget's destination and entity set"))
            }
            guard (1...PushWidgetSubscription.maximumRows).contains(widget.rows) else {
                throw HTTPError(ResourceErrorCode.invalidRequest, "a widget shows 1–\(PushWidgetSubscription.maximumRows) rows")
            }
            guard widget.fields.count <= PushWidgetSubscription.maximumFields, widget.fields.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 100 }) else {
                throw HTTPError(
                    ResourceErrorCode.invalidRequest, "a widget names at most \(PushWidgetSubscription.maximumFields) fields of 1–100 bytes")
            }
        }
        if let timeZone = document.timeZone {
            guard timeZone.utf8.count <= 64, TimeZone(identifier: timeZone) != nil else {
                throw HTTPError(ResourceErrorCode.invalidRequest, "time_zone must be an IANA time zone, such as Europe/Berlin")
            }
        }
        return ParsedRegistration(environment: document.environment, tokens: tokens, widgets: widgets, timeZone: document.timeZone)
    }
}
