import ArgumentParser
import Foundation
import TandemServer

/// Where the system secret that seals the server's keys comes from: `--system-secret-file`
/// (`0600`; current secret on the first line, previous ones after), else `TANDEM_SYSTEM_SECRET`
/// (previous ones in `TANDEM_SYSTEM_SECRET_PREVIOUS`), else a file generated beside a SQLite
/// database. PostgreSQL needs one of the first two.
struct SystemSecretOptions: ParsableArguments {
    @Option(name: .long, help: "A 0600 file with the system secret that seals the server's keys (first line; previous secrets on the next lines). Default: $TANDEM_SYSTEM_SECRET, else DATABASE.system-secret beside a SQLite database.")
    var systemSecretFile: String?

    /// The secret for a server on `database`.
    func resolve(for database: DatabaseLocation) throws -> SystemSecret {
        try SystemSecret.resolve(file: systemSecretFile, environment: ProcessInfo.processInfo.environment, database: database)
    }
}
