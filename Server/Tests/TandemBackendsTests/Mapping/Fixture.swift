import Foundation

/// The recorded backend responses under `Fixtures/` (see `Fixtures/SOURCES.md`).
enum Fixture {
    struct Missing: Error, CustomStringConvertible {
        let name: String
        var description: String { "no fixture \(name)" }
    }

    /// The bytes of the fixture file `name`.
    static func bytes(_ name: String) throws -> [UInt8] {
        let url = Bundle.module.resourceURL?.appendingPathComponent("Fixtures").appendingPathComponent(name)
        guard let url, let data = FileManager.default.contents(atPath: url.path) else { throw Missing(name: name) }
        return Array(data)
    }
}
