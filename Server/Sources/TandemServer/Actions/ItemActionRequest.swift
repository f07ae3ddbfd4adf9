import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import TandemPlatform
import TandemProtocol

/// An item action request once its headers are checked: what it asks for, its idempotency key
/// and `If-Match`, its step-up proof if any, and the fingerprint a repeat of its key is
/// compared by.
struct ItemActionRequest: Sendable, Equatable {
    /// The item acted on.
    var address: ItemAddress
    /// The action.
    var action: ItemAction
    /// The `Idempotency-Key` header.
    var idempotencyKey: String
    /// The `If-Match` header, as sent.
    var ifMatch: String
    /// The `Tandem-Step-Up` header, if sent.
    var stepUpProof: String?
    /// Where the user made the tap, as the host says (``ItemActionRules/originHeader``), for the
    /// audit line only — it is what the request's writer claimed, never a reason to allow
    /// anything; `nil` when it said nothing the server knows.
    var origin: ItemActionRules.Origin?
    /// The action's URL as clients reach it (issuer and canonical path): what a step-up proof's
    /// `htu` must name.
    var url: String
    /// SHA-256 (hex) over the method, the canonical path, `If-Match` and the body, each
    /// length-prefixed: two requests with the same key are the same request when these are.
    var fingerprint: String

    /// The headers' names.
    static let idempotencyKeyHeader = HTTPField.Name(ItemActionRules.idempotencyKeyHeader)!
    /// The step-up proof header's name.
    static let stepUpHeader = HTTPField.Name(ItemActionRules.stepUpHeader)!
    /// The replayed-answer header's name.
    static let replayedHeader = HTTPField.Name(ItemActionRules.replayedHeader)!
    /// The header naming where the tap was made.
    static let originHeader = HTTPField.Name(ItemActionRules.originHeader)!

    /// Reads `request` for the item at `address` and the action
    /// named `actionName` (path segments already decoded), in this order: the idempotency key
    /// (`400` when missing or malformed), `If-Match` (`428` when missing), the action (`404`
    /// when unknown), the body (at most `maxBodySize` bytes, only fingerprinted).
    static func read(
        _ request: Request, address: ItemAddress, actionName: String, issuer: String, maxBodySize: Int
    ) async throws(HTTPError) -> ItemActionRequest {
        guard let key = request.headers[idempotencyKeyHeader] else {
            throw HTTPError(ResourceErrorCode.invalidRequest, "an action needs an \(ItemActionRules.idempotencyKeyHeader) header")
        }
        guard ItemActionRules.isValidIdempotencyKey(key) else {
            throw HTTPError(
                ResourceErrorCode.invalidRequest,
                "\(ItemActionRules.idempotencyKeyHeader) must be 16–128 characters of letters, digits, '.', '_', '~' and '-'")
        }
        guard let ifMatch = request.headers[.ifMatch]?.trimmingCharacters(in: .whitespaces), !ifMatch.isEmpty else {
            throw HTTPError(ResourceErrorCode.preconditionRequired, "an action needs If-Match with the item's ETag")
        }
        guard let action = ItemAction(rawValue: actionName) else {
            throw HTTPError(
                ResourceErrorCode.notFound,
                "no action named \(actionName.debugDescription); the actions are \(ItemAction.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let body = try await RequestBodyReader.collect(request, limit: maxBodySize)
        let path = APIPath.itemAction(address, action: action)
        var hasher = SHA256()
        for part in [Data(request.method.rawValue.utf8), Data(path.utf8), Data(ifMatch.utf8), Data(body.readableBytesView)] {
            hasher.update(data: Data("\(part.count):".utf8))
            hasher.update(data: part)
        }
        return ItemActionRequest(
            address: address, action: action, idempotencyKey: key, ifMatch: ifMatch,
            stepUpProof: request.headers[stepUpHeader], origin: request.headers[originHeader].flatMap(ItemActionRules.Origin.init(rawValue:)),
            url: APIPath.absolute(path, issuer: issuer),
            fingerprint: Hex.encode(hasher.finalize()))
    }

    /// Whether `If-Match` names `etag`: one of its comma-separated tags equal to it by the strong
    /// comparison (RFC 9110 §13.1.1); a weak tag or `*` never names an item's version.
    func ifMatchNames(_ etag: String) -> Bool {
        !etag.isEmpty && ifMatch.split(separator: ",").contains { $0.trimmingCharacters(in: .whitespaces) == etag }
    }
}
