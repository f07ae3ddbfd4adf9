/// One file of a generated project: where it goes (relative to the project) and what it holds.
public struct GeneratedFile: Sendable, Equatable {
    /// The path below the project's directory, such as `App/AppModel.swift`.
    public let path: String
    /// The file's text.
    public let contents: String
}
