import ArgumentParser
import Foundation
import TandemGenerator
import TandemTool

/// `tandem generate widget --into APP_DIR --server URL --client-id ID --bundle-id ID --name App`:
/// adds a widget extension beside an app already in the store: its sources, the `WidgetCore`
/// package, an XcodeGen spec to include and a README with the checklist. Nothing existing is
/// changed, and no passcode change is needed.
struct GenerateWidget: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "widget", abstract: "Add a Tandem widget extension beside an existing app (no passcode change needed).")

    @OptionGroup var options: GenerateOptions

    @Option(name: .long, help: "The existing app's directory; the files added must not exist there yet.")
    var into: String

    func run() async throws {
        let configuration = try await options.configuration()
        let spec = try options.spec(for: configuration)
        for warning in spec.warnings { FileHandle.standardError.write(Data("tandem generate: warning: \(warning)\n".utf8)) }
        let directory = URL(fileURLWithPath: into)
        let written = try ProjectGenerator(version: GenerateOptions.generator).write(.widget, spec: spec, to: directory)
        JSONLine.print([
            "project": directory.standardizedFileURL.path, "name": spec.name, "widget_bundle_id": spec.widgetBundleID,
            "app_group": spec.appGroup, "files": written,
        ])
    }
}
