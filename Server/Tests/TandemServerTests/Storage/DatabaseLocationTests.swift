@testable import TandemServer
import Testing

/// Parsing `--database` and choosing the default location.
@Suite("Database location")
struct DatabaseLocationTests {
    @Test("sqlite: and postgres:// arguments parse; anything else is refused")
    func parsesBothDriversAndRefusesTheRest() throws {
        #expect(try DatabaseLocation(parsing: "sqlite:/var/lib/tandem/t.sqlite") == .sqlite(path: "/var/lib/tandem/t.sqlite"))
        #expect(try DatabaseLocation(parsing: "sqlite:relative.sqlite") == .sqlite(path: "relative.sqlite"))
        let url = "postgres://tandem:secret@db.internal:5432/tandem"
        #expect(try DatabaseLocation(parsing: url) == .postgres(url: url))
        #expect(try DatabaseLocation(parsing: "postgresql://db/tandem") == .postgres(url: "postgresql://db/tandem"))
        for bad in ["", "sqlite:", "mysql://db/tandem", "postgres://db", "postgres:///tandem", "/tmp/tandem.sqlite"] {
            #expect(throws: StorageError.self, "\(bad)") { try DatabaseLocation(parsing: bad) }
        }
    }

    @Test("the description never shows a password")
    func descriptionHidesThePassword() throws {
        let location = try DatabaseLocation(parsing: "postgres://tandem:hunter2@db:5432/tandem")
        #expect(!location.description.contains("hunter2"))
        #expect(location.description.contains("db:5432/tandem"))
    }

    @Test("the default is tandem.sqlite in the XDG data directory, else ~/.local/share")
    func defaultFollowsXDG() {
        #expect(DatabaseLocation.defaultLocation(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/ada"]) == .sqlite(path: "/data/tandem/tandem.sqlite"))
        #expect(DatabaseLocation.defaultLocation(environment: ["HOME": "/home/ada"]) == .sqlite(path: "/home/ada/.local/share/tandem/tandem.sqlite"))
    }
}
