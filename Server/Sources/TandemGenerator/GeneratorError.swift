/// Why `tandem generate` wrote nothing.
///
/// Every check runs before the first file is written, and the files are written into a
/// temporary directory that is moved into place last, so an error leaves the file system as
/// it was.
public enum GeneratorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A value that would end up in Swift source, YAML or a bundle identifier is not one the
    /// generator can write safely: which value, what it was, and what it must look like.
    case invalidValue(name: String, value: String, expected: String)
    /// The output directory exists and is not empty; nothing is overwritten.
    case outputExists(String)
    /// The existing app directory `generate widget` adds to does not exist.
    case appDirectoryMissing(String)
    /// The Tandem SDK the generated packages depend on is not at the given path.
    case sdkNotFound(String)
    /// A template did not parse or render (a build defect: the tests render every template).
    case template(name: String, reason: String)
    /// Writing the project failed; nothing was left behind.
    case io(String)

    public var description: String {
        switch self {
        case .invalidValue(let name, let value, let expected):
            "\(name) \(value.debugDescription) cannot be used: \(expected)"
        case .outputExists(let path): "\(path) exists and is not empty; choose a new directory (nothing was written)"
        case .appDirectoryMissing(let path): "there is no app directory at \(path)"
        case .sdkNotFound(let path): "no Tandem SDK at \(path) (a Package.swift naming the package \"Tandem\"); pass --sdk-path"
        case .template(let name, let reason): "the template \(name) cannot be rendered: \(reason)"
        case .io(let reason): "cannot write the project: \(reason)"
        }
    }
}
