/// A file the pages load from this server (never from anywhere else): the stylesheet and the
/// few scripts, compiled into the binary.
struct StaticAsset: Sendable {
    let name: String
    let contentType: String
    let bytes: [UInt8]

    /// Every asset, by the name in its URL (`/assets/<name>`).
    static let all: [String: StaticAsset] = [
        "tandem.css": StaticAsset(name: "tandem.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.tandem_css),
        "sso.js": StaticAsset(name: "sso.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.sso_js),
        "cockpit.js": StaticAsset(name: "cockpit.js", contentType: "text/javascript; charset=utf-8", bytes: PackageResources.cockpit_js),
    ]
}
