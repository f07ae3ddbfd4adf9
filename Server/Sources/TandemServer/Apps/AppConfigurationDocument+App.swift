import TandemProtocol

extension AppConfigurationDocument {
    /// The document for `app` on the server whose issuer is `issuer`, with its passcode policy
    /// and what it may decide: `actionableSets` are the sets whose items the app may act on.
    /// Such an app's `default_scope` carries `actions`, and its `action_policy` is the strictest
    /// of those sets' step-up policies (the lowest threshold): the host leaves for the user what
    /// any of its sets could refuse without a step-up, while the server checks each set's own.
    init(
        app: AppRecord, issuer: String, passcodePolicy: PasscodePolicyDocument, actionableSets: [ActionableSet] = [],
        defaultLinkHost: String? = nil
    ) {
        let strictest = actionableSets.map(\.stepUp).min { $0.stepUpAbove < $1.stepUpAbove }
        self.init(
            issuer: issuer, clientID: app.clientID, name: app.name, securityMode: app.securityMode.rawValue,
            redirectURIs: app.redirectURIs, urlScheme: app.urlScheme, ssoEnabled: app.ssoEnabled,
            ssoLinkHost: app.universalLinks(defaultHost: defaultLinkHost)?.host,
            defaultScope: actionableSets.isEmpty ? OAuthScope.userDefault : OAuthScope.userGrantable, passcodePolicy: passcodePolicy,
            lockScreenRedaction: app.lockScreenRedaction, dpopRequired: app.dpopRequired, actionPolicy: strictest ?? .default)
    }
}
