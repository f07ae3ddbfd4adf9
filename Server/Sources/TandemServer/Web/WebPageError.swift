/// Why the server's pages could not be prepared.
enum WebPageError: Error, CustomStringConvertible {
    /// The template `name` does not parse, for `reason`.
    case template(String, String)

    var description: String {
        switch self {
        case .template(let name, let reason): "the page template \(name) does not parse: \(reason)"
        }
    }
}
