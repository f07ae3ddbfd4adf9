import ArgumentParser
import TandemServer
import TandemTool

/// `tandem admin set-group`: puts a user in a group (or, with `--off`, takes them out), for an
/// actionable set whose approvers are a group.
struct AdminSetGroup: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set-group", abstract: "Put a user in a group, such as an actionable set's approvers (or take them out with --off).")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "The user's name.")
    var username: String

    @Option(name: .long, help: "The group's name (letters, digits, '.', '_' and '-').")
    var group: String

    @Flag(name: .long, help: "Take the user out of the group.")
    var off = false

    func run() async throws {
        let changed = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            let administration = ServerAdministration(database: storage)
            return off
                ? try await administration.removeFromGroup(username: username, group: group)
                : try await administration.addToGroup(username: username, group: group)
        }
        switch (off, changed) {
        case (false, true): print("\(username) is now in \(group)")
        case (false, false): print("\(username) was already in \(group)")
        case (true, true): print("\(username) is no longer in \(group)")
        case (true, false): print("\(username) was not in \(group)")
        }
    }
}
