/// The templates under `Web/Templates`, by name. `page` is the layout the others extend;
/// `sso-decision` is a partial of the SSO pages.
enum WebTemplate: String, CaseIterable, Sendable {
    case page
    case signIn = "sign-in"
    case continueAs = "continue"
    case message
    case ssoDesktop = "sso-desktop"
    case ssoPhone = "sso-phone"
    case ssoDecision = "sso-decision"
    case cockpitApps = "cockpit-apps"
    case cockpitApp = "cockpit-app"
    case cockpitDestinations = "cockpit-destinations"
    case cockpitDestination = "cockpit-destination"
    case account

    /// The template's text, as compiled into the binary.
    var source: [UInt8] {
        switch self {
        case .page: PackageResources.page_mustache
        case .signIn: PackageResources.sign_in_mustache
        case .continueAs: PackageResources.continue_mustache
        case .message: PackageResources.message_mustache
        case .ssoDesktop: PackageResources.sso_desktop_mustache
        case .ssoPhone: PackageResources.sso_phone_mustache
        case .ssoDecision: PackageResources.sso_decision_mustache
        case .cockpitApps: PackageResources.cockpit_apps_mustache
        case .cockpitApp: PackageResources.cockpit_app_mustache
        case .cockpitDestinations: PackageResources.cockpit_destinations_mustache
        case .cockpitDestination: PackageResources.cockpit_destination_mustache
        case .account: PackageResources.account_mustache
        }
    }
}
