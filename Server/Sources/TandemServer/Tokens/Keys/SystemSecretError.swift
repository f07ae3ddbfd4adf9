/// Why the system secret could not be had; the server does not start without it.
public enum SystemSecretError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No secret was given and none can be generated: PostgreSQL needs `TANDEM_SYSTEM_SECRET` or
    /// `--system-secret-file`, so every instance seals and opens with the same one.
    case missing(String)
    /// A secret shorter than ``SystemSecret/minimumLength`` bytes; give a longer, random one.
    case tooShort(source: String)
    /// The secret file can be read by other accounts; `chmod 600` it.
    case insecureFile(path: String, mode: String)
    /// The secret file cannot be read, created, or holds no secret.
    case unreadable(path: String, reason: String)

    /// A one-line message for the command line.
    public var description: String {
        switch self {
        case .missing(let message): "no system secret: \(message)"
        case .tooShort(let source): "the system secret in \(source) is shorter than \(SystemSecret.minimumLength) bytes; use a long random one"
        case .insecureFile(let path, let mode): "the system secret file \(path) has mode \(mode); it must be 0600 (chmod 600 \(path))"
        case .unreadable(let path, let reason): "cannot read the system secret file \(path): \(reason)"
        }
    }
}
