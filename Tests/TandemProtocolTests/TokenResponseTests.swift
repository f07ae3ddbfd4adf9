import Foundation
import TandemProtocol
import Testing

@Suite("Token endpoint bodies")
struct TokenResponseTests {
    @Test func theRFC6749ExampleDecodes() throws {
        let body = #"{"access_token":"2YotnFZFEjr1zCsicMWpAA","token_type":"example","expires_in":3600,"refresh_token":"tGzv3JOkF0XG5Qx2TlKWIA","example_parameter":"example_value"}"#
        let response = try JSONDecoder().decode(TokenResponse.self, from: Data(body.utf8))
        #expect(response == TokenResponse(
            accessToken: "2YotnFZFEjr1zCsicMWpAA", tokenType: "example", expiresIn: 3600, refreshToken: "tGzv3JOkF0XG5Qx2TlKWIA"))
    }

    @Test func aTokenExchangeAnswerNamesTheIssuedTokenType() throws {
        let response = TokenResponse(
            accessToken: "at", expiresIn: 300, refreshToken: "tdr_x", scope: OAuthScope.extensionGrant,
            issuedTokenType: TokenTypeIdentifier.accessToken.rawValue)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(response), as: UTF8.self)
        #expect(json == #"{"access_token":"at","expires_in":300,"issued_token_type":"urn:ietf:params:oauth:token-type:access_token","refresh_token":"tdr_x","scope":"data.read","token_type":"Bearer"}"#)
        #expect(try JSONDecoder().decode(TokenResponse.self, from: Data(json.utf8)) == response)
    }

    @Test func absentOptionalFieldsAreLeftOut() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(TokenResponse(accessToken: "at", expiresIn: 60)), as: UTF8.self)
        #expect(json == #"{"access_token":"at","expires_in":60,"token_type":"Bearer"}"#)
    }

    @Test func errorBodiesKeepCodesTheEnumDoesNotList() throws {
        let grant = try JSONDecoder().decode(
            OAuthErrorResponse.self, from: Data(#"{"error":"invalid_grant","error_description":"revoked"}"#.utf8))
        #expect(grant.code == .invalidGrant)
        #expect(grant.errorDescription == "revoked")
        let token = try JSONDecoder().decode(OAuthErrorResponse.self, from: Data(#"{"error":"invalid_token"}"#.utf8))
        #expect(token.code == nil)
        #expect(token.error == "invalid_token")
        #expect(token.errorDescription == nil)
    }

    @Test func errorBodiesEncodeTheRFCFieldNames() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(OAuthErrorResponse(.slowDown, description: "wait")), as: UTF8.self)
        #expect(json == #"{"error":"slow_down","error_description":"wait"}"#)
    }

    @Test func grantTypesAreListedInTheOrderTheServerAdvertises() {
        #expect(GrantType.allCases.map(\.rawValue) == [
            "authorization_code", "refresh_token", "urn:ietf:params:oauth:grant-type:token-exchange",
            "urn:tandem:params:oauth:grant-type:sso-passcode",
        ])
        #expect(TokenTypeIdentifier.refreshToken.rawValue == "urn:ietf:params:oauth:token-type:refresh_token")
    }

    @Test func scopesParseFromSpaceSeparatedStrings() {
        #expect(OAuthScope.parse(OAuthScope.userGrantable) == OAuthScope.all)
        #expect(OAuthScope.parse("  data.read  events.write ") == [OAuthScope.dataRead, OAuthScope.eventsWrite])
        #expect(OAuthScope.parse(OAuthScope.extensionGrant) == [OAuthScope.dataRead])
    }
}
