import Foundation
import TandemServerTestSupport
import TandemTestSupport
import Testing

/// `tandem-widget`, the business widget as its own small binary (what `make bench` measures
/// against iOS's widget memory limit), run as a process against a real server: it shows what
/// `tandem widget timeline` shows, and it carries no network stack.
@Suite("The widget binary across processes", .serialized)
struct WidgetBinaryTests {
    @Test func theWidgetBinaryShowsWhatTheFullToolShows() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        let catalog = try await fixture.host(["refresh-catalog"])
        #expect(catalog.status == 0, "\(catalog.stderr)")
        let configure = try await fixture.widget([
            "configure", "--instance", "w1", "--family", "systemLarge", "--destination", "sales", "--entity-set", "SalesOrders", "--limit", "4",
        ])
        #expect(configure.status == 0, "\(configure.stderr)")

        let waiting = try await fixture.widgetBinary(["timeline", "--instance", "w1", "--family", "systemLarge", "--json"])
        #expect(waiting.status == 0, "\(waiting.stderr)")
        #expect(try Self.firstEntry(waiting.stdout)["state"] as? String == "unavailable", "it wrote a request and waits for the host")
        let fulfil = try await fixture.host(["fulfil"])
        #expect(fulfil.status == 0, "\(fulfil.stderr)")
        let outcomes = try ExtensionFixture.lastJSON(fulfil.stdout)["outcomes"] as? [[String: Any]] ?? []
        #expect(outcomes.filter { $0["result"] as? String == "fulfilled" }.count == 1, "the binary's request reached the host: \(outcomes)")

        let small = try await fixture.widgetBinary(["timeline", "--instance", "w1", "--family", "systemLarge", "--json"])
        let full = try await fixture.widget(["timeline", "--instance", "w1", "--family", "systemLarge", "--json"])
        #expect(small.status == 0, "\(small.stderr)")
        #expect(full.status == 0, "\(full.stderr)")
        let smallEntry = try Self.firstEntry(small.stdout)
        let fullEntry = try Self.firstEntry(full.stdout)
        #expect(smallEntry["state"] as? String == "fresh")
        for field in ["state", "summary", "footer"] {
            #expect(smallEntry[field] as? String == fullEntry[field] as? String, "\(field)")
        }
        let rows = { (entry: [String: Any]) in (entry["rows"] as? [[String: Any]] ?? []).compactMap { $0["key"] as? String } }
        #expect(rows(smallEntry).count == 4)
        #expect(rows(smallEntry) == rows(fullEntry))
        #expect(try ExtensionFixture.lastJSON(small.stdout)["policy"] as? String == ExtensionFixture.lastJSON(full.stdout)["policy"] as? String)
    }

    @Test func theWidgetBinaryRefusesDirectModeByNamingTheCommandThatCan() async throws {
        let fixture = try await ExtensionFixture.start()
        defer { Task { try? await fixture.stop() } }
        let result = try await fixture.widgetBinary([
            "timeline", "--destination", "sales", "--entity-set", "SalesOrders", "--mode", "direct", "--json",
        ])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no network stack"), "\(result.stderr)")
        #expect(result.stderr.contains("tandem widget timeline --mode direct"), "\(result.stderr)")
    }

    #if os(Linux)
    /// The reason the binary exists: on Linux, URLSession loads libcurl and its TLS stack (about
    /// 7 MB resident), which a brokered widget never uses.
    @Test func theWidgetBinaryLoadsNoNetworkLibrary() async throws {
        let binary = try TandemExecutable.locate("tandem-widget")
        let ldd = try await TandemExecutable.run(program: URL(fileURLWithPath: "/usr/bin/ldd"), [binary.path])
        #expect(ldd.status == 0)
        let libraries = ldd.stdout
        #expect(libraries.contains("libc.so"), "ldd listed the libraries: \(libraries)")
        #expect(!libraries.contains("libcurl"), "\(libraries)")
        #expect(!libraries.contains("libFoundationNetworking"), "\(libraries)")
    }

    /// The widget extension links no vault: not one symbol of GRDB, SQLite or the vault's
    /// database is in the binary (the modules are cut by process; docs/ARCHITECTURE.md), while
    /// the full tool, which opens the vault, has them.
    @Test func theWidgetBinaryContainsNoVaultDatabase() async throws {
        let vaultSymbols = { (binary: URL) async throws -> [String] in
            let nm = try await TandemExecutable.run(program: URL(fileURLWithPath: "/usr/bin/nm"), ["--defined-only", binary.path])
            #expect(nm.status == 0)
            return nm.stdout.split(separator: "\n").map(String.init).filter {
                $0.contains("GRDB") || $0.contains("sqlite3_") || $0.contains("11TandemVault") || $0.contains("VaultDatabase")
            }
        }
        let widget = try await vaultSymbols(TandemExecutable.locate("tandem-widget"))
        #expect(widget.isEmpty, "\(widget.prefix(10))")
        #expect(try await !vaultSymbols(TandemExecutable.locate("tandem")).isEmpty, "the check finds the vault where it is")
    }
    #endif

    /// The first entry `--json` printed.
    private static func firstEntry(_ output: String) throws -> [String: Any] {
        let entries = try #require(try ExtensionFixture.lastJSON(output)["entries"] as? [[String: Any]])
        return try #require(entries.first)
    }
}
