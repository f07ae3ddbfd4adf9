import Foundation
@testable import TandemServer
import TandemProtocol
import Testing
import TandemServerTestSupport
import TandemTestSupport

/// `tandem admin …` run as a separate process, then its results used over HTTP.
@Suite("tandem admin")
struct AdminCommandTests {
    @Test("create-user, create-app, create-api-key and issue-refresh-token work end to end", arguments: TestBackend.allCases)
    func adminCommandsSetUpAWorkingGrant(backend: TestBackend) async throws {
        try await backend.withDatabase { database in
            let db = ["--database", database.argument]
            let user = try await TandemExecutable.run(["admin", "create-user", "--username", "ada"] + db, stdin: "a-long-password\n")
            #expect(user.status == 0, "\(user.stderr)")
            #expect(user.stdout.hasPrefix("created user ada"))
            let duplicate = try await TandemExecutable.run(["admin", "create-user", "--username", "ada"] + db, environment: ["TANDEM_PASSWORD": "another-password"])
            #expect(duplicate.status != 0)
            #expect(duplicate.stderr.contains("already exists"))

            let app = try await TandemExecutable.run([
                "admin", "create-app", "--client-id", "widget-demo", "--name", "Widget Demo",
                "--redirect-uri", "widgetdemo://oauth/callback", "--url-scheme", "widgetdemo", "--security-mode", "oauth", "--sso",
            ] + db)
            #expect(app.status == 0, "\(app.stderr)")
            let badMode = try await TandemExecutable.run(["admin", "create-app", "--client-id", "x", "--name", "X", "--security-mode", "magic"] + db)
            #expect(badMode.status != 0)

            let key = try await TandemExecutable.run(["admin", "create-api-key", "--client-id", "widget-demo"] + db)
            #expect(key.status == 0, "\(key.stderr)")
            let apiKey = key.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(apiKey.hasPrefix("tdk_"))

            let issued = try await TandemExecutable.run(["admin", "issue-refresh-token", "--username", "ada", "--client-id", "widget-demo", "--scope", "read"] + db,
                environment: [SystemSecret.environmentVariable: SystemSecret.testText])
            #expect(issued.status == 0, "\(issued.stderr)")
            let refreshToken = issued.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(refreshToken.hasPrefix("tdr_"))

            try await database.withStorage { storage in
                let stored = try #require(try await storage.apps.app(clientID: "widget-demo"))
                #expect(stored.redirectURIs == ["widgetdemo://oauth/callback"])
                #expect(stored.ssoEnabled && stored.securityMode == .oauth && stored.urlScheme == "widgetdemo")
                let adaRecord = try #require(try await storage.accounts.user(named: "ada"))
                #expect(try PasswordHasher().verify("a-long-password", against: adaRecord.passwordHash))
                #expect(try await storage.apps.apiKey(hash: SecretToken.hash(apiKey))?.clientID == "widget-demo")
            }

            // Load-test grants bound to a DPoP key: useless without a proof by it.
            let dpopKey = SoftwareDPoPKey()
            let bound = try await TandemExecutable.run([
                "admin", "issue-refresh-token", "--username", "ada", "--client-id", "widget-demo", "--scope", "read", "--count", "2",
                // Joined with `=`: a thumbprint may begin with '-', which would read as an option.
                "--dpop-jkt=" + dpopKey.publicKey.thumbprint,
            ] + db)
            #expect(bound.status == 0, "\(bound.stderr)")
            let boundToken = try #require(bound.stdout.split(separator: "\n").first.map(String.init))
            let badThumbprint = try await TandemExecutable.run([
                "admin", "issue-refresh-token", "--username", "ada", "--client-id", "widget-demo", "--count", "2", "--dpop-jkt", "not-a-thumbprint",
            ] + db)
            #expect(badThumbprint.status != 0)

            let server = try await ServerProcess(database: database.argument, graceSeconds: 5, scratch: database.directory.url)
            let response = try await HTTPTestClient().postForm(server.baseURL, "oauth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "widget-demo"),
            ])
            let unproven = try await HTTPTestClient().postForm(server.baseURL, "oauth/token", [
                ("grant_type", "refresh_token"), ("refresh_token", boundToken), ("client_id", "widget-demo"),
            ])
            try await server.stop()
            #expect(response.status == 200)
            #expect(response.json["scope"] == "read")
            #expect(unproven.json["error"] == "invalid_dpop_proof")
        }
    }
}
