import Foundation

/// One file of a generated project: where it goes (relative to the project) and what it holds.
public struct GeneratedFile: Sendable, Equatable {
    /// The path below the project's directory, such as `App/AppModel.swift`.
    public let path: String
    /// The file's bytes: UTF-8 text for every file but the app icon's PNG.
    public let bytes: Data

    /// The file's text (for the PNG, its bytes decoded leniently; no caller needs that).
    public var contents: String { String(decoding: bytes, as: UTF8.self) }

    /// A text file.
    public init(path: String, contents: String) {
        self.path = path
        bytes = Data(contents.utf8)
    }

    /// A binary file.
    public init(path: String, bytes: Data) {
        self.path = path
        self.bytes = bytes
    }
}
