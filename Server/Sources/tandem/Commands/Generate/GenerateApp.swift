import ArgumentParser
import Foundation
import TandemGenerator
import TandemTool

/// `tandem generate app --server URL --client-id ID --bundle-id ID --output DIR`: a new project
/// directory with the host app, its widget extension, the portable `AppCore` package (whose
/// tests run anywhere: `swift test`), an XcodeGen `project.yml` and a README.
///
/// Prints one JSON line: the directory, the app's name and identifiers, and the files written.
struct GenerateApp: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app", abstract: "Write a new host app and widget extension wired to Tandem (XcodeGen project).")

    @OptionGroup var options: GenerateOptions

    @Option(name: .long, help: "The new project's directory; must not exist or be empty.")
    var output: String

    func run() async throws {
        let configuration = try await options.configuration()
        let spec = try options.spec(for: configuration)
        for warning in spec.warnings { FileHandle.standardError.write(Data("tandem generate: warning: \(warning)\n".utf8)) }
        let directory = URL(fileURLWithPath: output)
        let written = try ProjectGenerator(version: GenerateOptions.generator).write(.app, spec: spec, to: directory)
        JSONLine.print([
            "project": directory.standardizedFileURL.path, "name": spec.name, "bundle_id": spec.bundleID, "app_group": spec.appGroup,
            "url_scheme": spec.urlScheme, "client_id": configuration.clientID, "files": written,
        ])
    }
}
