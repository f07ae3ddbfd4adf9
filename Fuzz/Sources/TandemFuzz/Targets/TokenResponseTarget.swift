import Foundation
@testable import TandemAuth
import TandemProtocol

/// Token responses on the client (`Sources/TandemAuth/Tokens/`, coded by
/// `Sources/TandemProtocol/Tokens/TokenResponse.swift`): the body of the token endpoint's
/// answer, read with `TokenSet(tokenEndpointAnswer:now:)`. The first byte picks the status: even
/// is 200, odd is 400 (an RFC 6749 §5.2 error body, read with `AuthError(response:)`).
///
/// Invariants: a token set made from a 200 answer holds a non-empty bearer access token that
/// expires after now; a decoded `TokenResponse` or `OAuthErrorResponse` encodes and decodes to
/// itself.
enum TokenResponseTarget {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static let target = FuzzTarget(
        name: "token-response",
        summary: "a token endpoint answer read with TokenSet(tokenEndpointAnswer:) and AuthError(response:); what decodes re-encodes the same",
        seeds: {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let answers: [(UInt8, (any Encodable)?)] = [
                (0, TokenResponse(accessToken: "eyJhbGciOiJFUzI1NiJ9.e30.c2ln", tokenType: "Bearer", expiresIn: 900, refreshToken: "rt-1f2e3d", scope: "orders:read")),
                (0, TokenResponse(accessToken: "at-short", tokenType: "bearer", expiresIn: 60)),
                (1, OAuthErrorResponse(.invalidGrant, description: "the refresh token was revoked")),
                (1, OAuthErrorResponse(error: "slow_down")),
            ]
            return answers.compactMap { status, body in body.flatMap { try? encoder.encode($0) }.map { Data([status]) + $0 } }
        },
        run: run
    )

    static func run(_ input: Data) {
        let body = Data(input.dropFirst())
        let status = input.first.map { $0 % 2 == 0 ? 200 : 400 } ?? 200
        let response = HTTPResponse(status: status, body: body)
        if status == 200, let tokens = try? TokenSet(tokenEndpointAnswer: response, now: now) {
            Invariant.expect(!tokens.accessToken.isEmpty && tokens.tokenType == "Bearer", "a token set without a bearer access token")
            Invariant.expect(tokens.expiresAt > now, "a token set that expires at \(tokens.expiresAt), not after now")
        }
        if status != 200 { _ = AuthError(response: response) }
        roundTrips(TokenResponse.self, body)
        roundTrips(OAuthErrorResponse.self, body)
    }

    private static func roundTrips<Value: Codable & Equatable>(_ type: Value.Type, _ body: Data) {
        guard let value = try? JSONDecoder().decode(Value.self, from: body) else { return }
        let again = (try? JSONEncoder().encode(value)).flatMap { try? JSONDecoder().decode(Value.self, from: $0) }
        Invariant.expect(again == value, "a \(Value.self) does not encode and decode to itself")
    }
}
