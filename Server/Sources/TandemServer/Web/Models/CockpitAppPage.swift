/// One app in the cockpit: its SSO settings and onboarding URL, its API keys (a new one shown
/// once), and its audit log.
struct CockpitAppPage: Sendable {
    /// One API key (never the key itself).
    struct Key: Sendable {
        let id: String
        let path: String
        let created: String
        let state: String
        let live: Bool
        let csrfToken: String
    }

    /// A preview of a widget the app's users placed, drawn by the server (inserted unescaped).
    struct Preview: Sendable {
        let caption: String
        let svg: String
    }

    /// One audit line.
    /// How many widget actions ended one way, from one surface and family.
    struct ActionLine: Sendable {
        let outcome: String
        let surface: String
        let family: String
        let count: Int
    }

    struct AuditLine: Sendable {
        let at: String
        let kind: String
        let user: String
        let source: String
        let detail: String
    }

    let clientID: String
    let path: String
    let name: String
    /// Whether the app sends API keys (an OAuth app has none to manage).
    let apiKeyApp: Bool
    let ssoEnabled: Bool
    let ssoConfirmation: Bool
    /// Whether Lock Screen and StandBy widgets hide their rows while the phone is locked.
    let lockScreenRedaction: Bool
    /// Whether the app's token requests must carry a DPoP proof.
    let dpopRequired: Bool
    let ssoURL: String
    /// The universal links' host and Apple app id ("" when not set).
    let linkHost: String
    let appleAppID: String
    /// Whether SSO links are universal links (both set).
    let universalLinks: Bool
    let keys: [Key]
    let audit: [AuditLine]
    /// The widget taps of the last seven days as SVG, made by the server (inserted unescaped).
    let tapChart: String
    /// "12 taps".
    let tapSummary: String
    /// The app's APNs key, when it has one: its key id, team and topic.
    let apnsKey: String?
    /// What the server pushed for the app: sent and refused per kind, and how many are owed.
    let pushSummary: String
    /// The widgets the taps name, drawn with the server's rows.
    let previews: [Preview]
    /// The app's widget actions of the last seven days, by outcome, surface and family.
    let actions: [ActionLine]
    /// "14 actions: 11 done, 2 conflict, 1 needs-app".
    let actionSummary: String
    /// Whether ``actions`` has a line (the table is drawn only then).
    let hasActions: Bool
    /// A key just created, shown this once.
    let newKey: String?
    let message: String?
    let csrfToken: String
}
