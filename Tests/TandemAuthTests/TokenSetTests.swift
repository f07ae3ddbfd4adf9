import Foundation
import Testing

@testable import TandemAuth

@Suite struct TokenSetTests {
    let tokens = TokenSet(accessToken: "at_1", refreshToken: "tdr_1", expiresAt: Date(timeIntervalSince1970: 2_000_000_000), scope: "data.read")

    @Test func tokenSetRoundTripsThroughJSON() throws {
        let data = try JSONEncoder().encode(tokens)
        #expect(try JSONDecoder().decode(TokenSet.self, from: data) == tokens)
    }

    @Test func storedTokenSetsOfTheOldFormatDecodeAsBearer() throws {
        // As a vault or the shared grant holds them: with `tokenType` Bearer, or (older still) without it.
        let stored = [
            #"{"accessToken":"at_1","refreshToken":"tdr_1","expiresAt":1000,"scope":"data.read","tokenType":"Bearer"}"#,
            #"{"accessToken":"at_1","refreshToken":"tdr_1","expiresAt":1000,"scope":"data.read"}"#,
        ]
        for text in stored {
            let decoded = try JSONDecoder().decode(TokenSet.self, from: Data(text.utf8))
            #expect(decoded.tokenType == "Bearer")
            #expect(!decoded.isDPoPBound)
            #expect(decoded.refreshToken == "tdr_1")
        }
    }

    @Test func aBoundTokenSetKeepsItsTypeThroughStorage() throws {
        var bound = tokens
        bound.tokenType = TokenSet.dpopTokenType
        let decoded = try JSONDecoder().decode(TokenSet.self, from: try JSONEncoder().encode(bound))
        #expect(decoded == bound)
        #expect(decoded.isDPoPBound)
        #expect(!"\(decoded)".contains("at_1"))
    }
}
