import Foundation
import Testing

@testable import TandemAuth

@Suite struct TokenSetTests {
    let tokens = TokenSet(accessToken: "at_1", refreshToken: "tdr_1", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read")

    @Test func tokenSetRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(tokens)
        #expect(try JSONDecoder().decode(TokenSet.self, from: data) == tokens)
    }
}
