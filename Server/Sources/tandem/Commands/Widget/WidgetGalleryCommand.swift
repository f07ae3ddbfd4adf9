import ArgumentParser
import Foundation
import TandemTool
import TandemWidgetRendering
import TandemWidgets

/// `tandem widget gallery --out DIR`: every state of the business widget in every family, as
/// SVG files and one `index.html` that shows them side by side.
struct WidgetGalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery", abstract: "Write every widget state × family as SVG, with an HTML page showing them all.")

    @Option(name: .long, help: "The directory to write (created if needed).")
    var out: String

    func run() async throws {
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        let gallery = WidgetGallery(samples: WidgetGallery.standardSamples(now: Date()))
        try gallery.write(to: directory)
        JSONLine.print([
            "page": directory.appendingPathComponent("index.html").path, "svgFiles": gallery.svgFiles().count,
            "states": gallery.samples.count, "families": gallery.families.count,
        ])
    }
}
