import ArgumentParser
import Foundation
import TandemBackends
import TandemServer
import TandemTool

/// `tandem admin destination`: the destinations whose data lives in a customer's backend
/// (`rest`, `odata-v4`, `odata-v2`), each one JSON document. Changes are audited.
struct AdminDestination: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "destination",
        abstract: "Manage destinations read from a customer's backend (REST, OData V4, OData V2).",
        subcommands: [Save.self, Listing.self, Removal.self, Trial.self, Credential.self])

    /// `tandem admin destination set --file FILE`.
    struct Save: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Save a backend destination from its JSON document (validated first; replaces one of the same name).",
            discussion: """
                The document: {"name":…,"title":…,"protocolKind":"rest"|"odata-v4"|"odata-v2","baseURL":"https://…",\
                "authentication":{"mode":"user-token","audience":…}|{"mode":"technical-user","audience":…,"userHeader":"Tandem-User"}|{"mode":"none"},\
                "entitySets":[{"name":…,"path":…,"query":[{"name":"$filter","value":…}],"mapping":{…}}]}. \
                A document that is refused leaves what was saved as it was.
                """)

        @OptionGroup var database: DatabaseOptions

        @Option(name: .long, help: "The destination's JSON document ('-' for standard input).")
        var file: String

        func run() async throws {
            let document: Data
            if file == "-" {
                document = FileHandle.standardInput.readDataToEndOfFile()
            } else {
                guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure("cannot read \(file)") }
                document = data
            }
            let created = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
                try await ServerAdministration(database: storage).saveBackendDestination(document: document)
            }
            FileHandle.standardOutput.write(Data((created ? "created\n" : "replaced\n").utf8))
        }
    }

    /// `tandem admin destination list`.
    struct Listing: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Print every backend destination's document, one JSON line each.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let documents = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
                try await ServerAdministration(database: storage).backendDestinationDocuments()
            }
            for document in documents { FileHandle.standardOutput.write(document + Data("\n".utf8)) }
        }
    }

    /// `tandem admin destination remove --name NAME`.
    struct Removal: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a backend destination.")

        @OptionGroup var database: DatabaseOptions

        @Option(name: .long, help: "The destination's name.")
        var name: String

        func run() async throws {
            let removed = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
                try await ServerAdministration(database: storage).removeBackendDestination(name: name)
            }
            guard removed else { throw CommandFailure("no backend destination named \(name.debugDescription)") }
            FileHandle.standardOutput.write(Data("removed\n".utf8))
        }
    }

    /// `tandem admin destination set-credential --name NAME --username USER [--password-file FILE]`.
    struct Credential: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-credential",
            abstract: "Store the technical user a technical-user destination is called with (its password sealed).",
            discussion: """
                Calls to the destination then carry Authorization: Basic of this user, and the user they are \
                for as a signed 5-minute token in the destination's userHeader. The password comes from \
                --password-file, $TANDEM_BACKEND_PASSWORD or one line of standard input, never from the \
                command line; it is stored only sealed and never shown. Audited with the user's name.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var systemSecret: SystemSecretOptions

        @Option(name: .long, help: "The destination's name.")
        var name: String

        @Option(name: .long, help: "The technical user's name.")
        var username: String

        @Option(name: .long, help: "A file whose first line is the password (else $TANDEM_BACKEND_PASSWORD, else one line of standard input).")
        var passwordFile: String?

        func run() async throws {
            let secret = try systemSecret.resolve(for: try database.location())
            var password = try SecretInput.read(option: nil, optionName: "--password", file: passwordFile, environmentVariable: "TANDEM_BACKEND_PASSWORD")
            if password == nil { password = readLine(strippingNewline: true) }
            guard let password, !password.isEmpty else {
                throw CommandFailure("no password: use --password-file, set TANDEM_BACKEND_PASSWORD or write it on standard input")
            }
            try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
                try await ServerAdministration(database: storage).setBackendCredential(
                    destination: name, username: username, password: password, secret: secret)
            }
            FileHandle.standardOutput.write(Data("stored\n".utf8))
        }
    }

    /// `tandem admin destination fetch --name NAME --entity-set SET --username USER --client-id APP --issuer URL`.
    struct Trial: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Fetch the first page of a backend destination's set as a user would get it (audited; nothing is kept).",
            discussion: """
                Calls the backend with the user's 5-minute token, as the server does, and prints what the \
                user's widget would get: the page, or the error (backend_forbidden, backend_unauthorized, \
                backend_unavailable, backend_error). Exits 0 for a page and 1 for an error. The backend \
                options say what the call may reach, as for tandem serve.
                """)

        @OptionGroup var database: DatabaseOptions
        @OptionGroup var systemSecret: SystemSecretOptions
        @OptionGroup var backends: ServeBackendOptions

        @Option(name: .long, help: "The destination's name.")
        var name: String

        @Option(name: .long, help: "The entity set's name.")
        var entitySet: String

        @Option(name: .long, help: "The user to fetch it for.")
        var username: String

        @Option(name: .long, help: "The app the user's request comes through.")
        var clientID: String

        @Option(name: .long, help: "The server's issuer URL, as its discovery document says (the backend checks iss).")
        var issuer: String

        @Option(name: .long, help: "Rows to ask for (1 to 500).")
        var limit: Int = 20

        func run() async throws {
            let secret = try systemSecret.resolve(for: try database.location())
            let outbound = try backends.policy()
            let page = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
                try await ServerAdministration(database: storage).fetchBackendPage(
                    destination: name, entitySet: entitySet, username: username, clientID: clientID, issuer: issuer, limit: limit,
                    outbound: outbound, secret: secret)
            }
            FileHandle.standardOutput.write(Data((page.body + "\n").utf8))
            guard page.status == 200 else { throw ExitCode(1) }
        }
    }
}
