/// Facts about this build of the Tandem server package.
public enum TandemServerInfo {
    /// The server package's version, printed by `tandem --version`.
    public static let version = "0.1.0"
}
