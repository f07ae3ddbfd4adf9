@testable import TandemServer
import Testing

/// The Migrator skips a version it has applied, so two migrations sharing a version number
/// (two branches each adding "version 4") would silently leave one unapplied.
@Suite("server migrations")
struct MigrationVersionTests {
    @Test("every migration has its own version")
    func versionsAreUnique() {
        let versions = ServerMigrations.all.map(\.version)
        #expect(Set(versions).count == versions.count, "repeated versions in \(versions)")
    }
}
