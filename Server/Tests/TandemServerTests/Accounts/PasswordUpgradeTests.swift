import Foundation
@testable import TandemServer
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// The password cost: OWASP's scrypt minimum by default, and a stored hash weaker than the
/// server's current cost is replaced on the next successful sign-in.
@Suite("Password cost and upgrade")
struct PasswordUpgradeTests {
    @Test("the default cost is scrypt N=2^17, r=8, p=1, and it travels in the hash")
    func defaultCostIsOWASPMinimum() throws {
        let hasher = PasswordHasher()
        #expect(hasher.logN == 17)
        #expect(hasher.blockSize == 8)
        #expect(hasher.parallelism == 1)
        let stored = try hasher.hash("correct horse battery staple")
        #expect(stored.hasPrefix("$scrypt$ln=17,r=8,p=1$"))
    }

    @Test("a weaker stored hash is re-hashed with the current cost on sign-in; a wrong password changes nothing", arguments: TestBackend.allCases)
    func weakHashIsUpgradedOnSignIn(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let fixture = try await OAuthFlowFixture.seed(database)  // stored at ln=10
            @Sendable func storedHash() async throws -> String? {
                try await database.withStorage { storage in try await storage.accounts.user(named: OAuthFlowFixture.username)?.passwordHash }
            }
            let before = try #require(try await storedHash())
            #expect(before.hasPrefix("$scrypt$ln=10,"))
            try await fixture.test(configure: { $0.passwordHasher = PasswordHasher(logN: 11) }) { client in
                _ = try await fixture.signIn(BrowserTestClient(client), challenge: OAuthFlowFixture.pkce().challenge, password: "wrong")
                let unchanged = try await storedHash()
                #expect(unchanged == before, "a failed sign-in must not touch the hash")
                #expect(try await fixture.signIn(BrowserTestClient(client), challenge: OAuthFlowFixture.pkce().challenge).status == 302)
            }
            let after = try #require(try await storedHash())
            #expect(after.hasPrefix("$scrypt$ln=11,r=8,p=1$"), "\(after)")
            #expect(try PasswordHasher(logN: 11).verify(OAuthFlowFixture.password, against: after))
        }
    }
}
