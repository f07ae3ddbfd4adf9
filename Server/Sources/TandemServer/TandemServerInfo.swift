/// Facts about this build of the Tandem server package.
///
/// The server itself (routes, OAuth, SSO, storage) lands with its own issue; until then this
/// target exists so the package layout, the CLI and CI are in place.
public enum TandemServerInfo {
    /// The server package's version, printed by `tandem --version`.
    public static let version = "0.1.0"
}
