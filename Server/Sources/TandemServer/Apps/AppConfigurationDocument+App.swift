import TandemProtocol

extension AppConfigurationDocument {
    /// The document for `app` on the server whose issuer is `issuer`, with its passcode and
    /// action policies.
    init(app: AppRecord, issuer: String, passcodePolicy: PasscodePolicyDocument, actionPolicy: ActionPolicyDocument = .default) {
        self.init(
            issuer: issuer, clientID: app.clientID, name: app.name, securityMode: app.securityMode.rawValue,
            redirectURIs: app.redirectURIs, urlScheme: app.urlScheme, ssoEnabled: app.ssoEnabled,
            ssoLinkHost: app.universalLinks?.host,
            defaultScope: OAuthScope.userDefault, passcodePolicy: passcodePolicy, lockScreenRedaction: app.lockScreenRedaction,
            dpopRequired: app.dpopRequired, actionPolicy: actionPolicy)
    }
}
