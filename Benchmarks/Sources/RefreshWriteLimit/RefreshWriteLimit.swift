import Foundation

/// The limit the database puts on the refresh grant on SQLite (`scripts/bench-server.sh`): the
/// server's rotation statement alone, in a loop, on a copy of a database its own `tandem admin`
/// seeded, with the server's durability settings.
///
///     RefreshWriteLimit SEEDED_DATABASE SERVER_SOURCES CLIENT_ID SECONDS
///
/// SERVER_SOURCES is the `Server/Sources/TandemServer` folder of the tree the seeding binary was
/// built from: the statement is read from its `TokenStore.rotate(_:)`. The trigger that inserts
/// each successor, the indexes and the foreign keys are the seeded database's own. Prints one
/// line per way of committing, for the script:
///
///     WRITE_LIMIT commit=each rotations=N seconds=F rps=F
///     WRITE_LIMIT commit=shared64 rotations=N seconds=F rps=F
@main
enum RefreshWriteLimit {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            guard arguments.count == 4, let seconds = Int(arguments[3]), seconds > 0 else {
                throw RefreshWriteLimitFailure("usage: RefreshWriteLimit SEEDED_DATABASE SERVER_SOURCES CLIENT_ID SECONDS")
            }
            let seeded = URL(fileURLWithPath: arguments[0])
            guard FileManager.default.fileExists(atPath: seeded.path) else { throw RefreshWriteLimitFailure("no database at \(seeded.path)") }
            let statement = try RotationStatement(findingIn: URL(fileURLWithPath: arguments[1], isDirectory: true))
            FileHandle.standardError.write(Data("RefreshWriteLimit: the rotation statement of \(statement.file.path) (\(statement.binds.count) binds)\n".utf8))
            let loop = RotationLoop(statement: statement, clientID: arguments[2])
            for (name, commit) in [("each", RotationLoop.Commit.each), ("shared64", .shared(64))] {
                let outcome = try await loop.run(seeded: seeded, commit: commit, duration: .seconds(seconds))
                print(String(
                    format: "WRITE_LIMIT commit=%@ rotations=%d seconds=%.3f rps=%.1f", name, outcome.rotations, outcome.seconds, outcome.perSecond))
            }
        } catch {
            FileHandle.standardError.write(Data("RefreshWriteLimit: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// Why the limit could not be measured.
struct RefreshWriteLimitFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
