import ArgumentParser

/// `tandem admin`: manages the server's users, apps, API keys and tokens directly in its database.
struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin",
        abstract: "Administer the server's users, apps, API keys and tokens.",
        subcommands: [
            AdminCreateUser.self, AdminCreateApp.self, AdminCreateAPIKey.self, AdminIssueRefreshToken.self, AdminBackendToken.self, AdminDestination.self, AdminSeedDemo.self,
            AdminSetResourceServer.self, AdminSetWriter.self, AdminSetDPoP.self, AdminSetAPNsKey.self, AdminSetActionable.self, AdminSetGroup.self, AdminAudit.self,
        ]
    )
}
