import ArgumentParser
import Foundation
import TandemProtocol
import TandemServer
import TandemTool

/// `tandem admin audit`: the newest lines of the audit log (every SSO passcode issued, claimed,
/// approved, denied, redeemed, refused or reused), newest first, one JSON object per line.
struct AdminAudit: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Print the newest audit log lines (SSO passcodes: issue, claim, decision, redemption, refusals).")

    @OptionGroup var database: DatabaseOptions

    @Option(name: .long, help: "Only this app's lines.")
    var clientID: String?

    @Option(name: .long, help: "How many lines, at most 1000.")
    var limit = 50

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be 1 to 1000") }
    }

    func run() async throws {
        let events = try await database.withStorage(logger: ToolLogger.make(label: "tandem.admin")) { storage in
            try await ServerAdministration(database: storage).auditEvents(clientID: clientID, limit: limit)
        }
        for event in events {
            var line: [String: Any] = ["at": ISO8601Time.string(from: event.at.date, fractionalSeconds: false), "kind": event.kind, "detail": event.detail]
            if let clientID = event.clientID { line["client_id"] = clientID }
            if let userID = event.userID { line["user_id"] = userID }
            if let source = event.source { line["source"] = source }
            JSONLine.print(line)
        }
    }
}
