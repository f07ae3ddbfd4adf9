import TandemProtocol

// `tandem admin seed-demo`: a demo user, two demo apps and the demo business data.
extension ServerAdministration {
    /// The demo user's name.
    public static let demoUsername = "demo"
    /// The password the demo user gets when none is given. For demos only.
    public static let defaultDemoPassword = "demo-password"
    /// The OAuth demo app.
    public static let demoClientID = "tandem-demo"
    /// The API-key demo app (a kiosk without user sign-in).
    public static let demoKioskClientID = "tandem-demo-kiosk"
    /// The group whose members decide the demo's approvals; the demo user is in it.
    public static let demoApproverGroup = "approvers"
    /// The demo's approvals: decided through the demo app's host by the approvers group, never by
    /// an item's requester, with a step-up above 1000.00.
    public static let demoApprovals = ActionableSet(
        destination: DemoBusinessData.destination, entitySet: DemoBusinessData.approvals, idField: DemoBusinessData.approvalIDField,
        apps: [demoClientID], approvers: .group(demoApproverGroup), requesterField: "Requester", stepUp: .default)
    /// The demo app's passcode policy: six characters with a digit, lock for an hour at ten failures.
    public static let demoPasscodePolicy = PasscodePolicyDocument(minimumLength: 6, requiredCharacterClasses: [.digit])

    /// Creates whatever of the demo is missing, and leaves what exists as it is: the user `demo`,
    /// the OAuth app `tandem-demo` (SSO enabled, with a passcode policy), the API-key app
    /// `tandem-demo-kiosk` with one API key, and the ``DemoBusinessData`` (rewritten only if it
    /// differs), its `Approvals` set actionable by `ApprovalID` (``demoApprovals``) with the demo
    /// user in the approvers group.
    ///
    /// - Parameters:
    ///   - password: The demo user's password, used only when the user is created.
    /// - Returns: What was created; the API key appears only when the kiosk app was created now.
    public func seedDemo(password: String) async throws(AdminError) -> DemoSeedReport {
        let now = Timestamp(clock.now)
        let createdUser = try await createIfMissing { () throws(AdminError) in
            try await createUser(username: Self.demoUsername, password: password)
        }
        var createdApps: [String] = []
        let createdOAuthApp = try await createIfMissing { () throws(AdminError) in
            try await createApp(
                clientID: Self.demoClientID, name: "Tandem Demo",
                redirectURIs: ["tandem-demo://oauth/callback", "http://127.0.0.1/callback"],
                urlScheme: "tandem-demo", securityMode: .oauth, ssoEnabled: true)
        }
        if createdOAuthApp { createdApps.append(Self.demoClientID) }
        var apiKey: String?
        let createdKiosk = try await createIfMissing { () throws(AdminError) in
            try await createApp(
                clientID: Self.demoKioskClientID, name: "Tandem Demo Kiosk", redirectURIs: [],
                urlScheme: nil, securityMode: .apiKey, ssoEnabled: false)
        }
        if createdKiosk {
            createdApps.append(Self.demoKioskClientID)
            apiKey = try await createAPIKey(clientID: Self.demoKioskClientID)
        }
        var entitySets: [(name: String, rows: Int, written: Bool)] = []
        do {
            if try await database.apps.passcodePolicy(clientID: Self.demoClientID) == nil {
                try await database.apps.setPasscodePolicy(Self.demoPasscodePolicy, clientID: Self.demoClientID, now: now)
            }
            try await database.actions.setActionable(Self.demoApprovals, now: now)
            if let demo = try await database.accounts.user(named: Self.demoUsername) {
                try await database.accounts.addToGroup(userID: demo.id, group: Self.demoApproverGroup, now: now)
            }
            for set in DemoBusinessData().entitySets {
                let written = try await database.businessData.replaceEntitySet(
                    destination: DemoBusinessData.destination, title: DemoBusinessData.title, name: set.name, rows: set.rows, now: now)
                entitySets.append((set.name, set.rows.count, written))
            }
        } catch {
            throw .storage(error)
        }
        return DemoSeedReport(createdUser: createdUser, createdApps: createdApps, apiKey: apiKey, entitySets: entitySets)
    }

    /// Runs `create`; `true` when it created something, `false` when it was already there.
    private func createIfMissing<Created>(_ create: () async throws(AdminError) -> Created) async throws(AdminError) -> Bool {
        do {
            _ = try await create()
            return true
        } catch .storage(.alreadyExists) {
            return false
        }
    }
}
