import Foundation
import TandemProtocol

/// The `apple-app-site-association` file of the apps with universal SSO links: for each, its
/// Apple app id and the one path its links take, `/sso-link/<client id>` with a `config` query
/// (Apple's "Supporting associated domains"; the `components` form of iOS 13 and later).
struct AppleAppSiteAssociation: Sendable, Equatable {
    /// One app's entry.
    struct Entry: Sendable, Equatable {
        let appleAppID: String
        let path: String
    }

    let entries: [Entry]

    /// The file for `apps`, whose links default to `defaultHost`; apps without universal links
    /// are left out.
    init(apps: [AppRecord], defaultHost: String?) {
        entries = apps.compactMap { app in
            app.universalLinks(defaultHost: defaultHost).map {
                Entry(appleAppID: $0.appleAppID, path: SSOOnboardingPayload.universalLinkPathPrefix + FormEncoding.escape(app.clientID))
            }
        }
    }

    /// The file's JSON, keys sorted.
    var json: Data {
        let details: [JSONValue] = entries.map { entry in
            .object([
                "appIDs": .array([.string(entry.appleAppID)]),
                "components": .array([
                    .object([
                        "/": .string(entry.path),
                        "?": .object([SSOOnboardingPayload.parameterName: .string("?*")]),
                        "comment": .string("Tandem SSO onboarding"),
                    ])
                ]),
            ])
        }
        let document = JSONValue.object(["applinks": .object(["details": .array(details)])])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(document)) ?? Data()
    }
}
