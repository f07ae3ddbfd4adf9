import ArgumentParser
import Foundation
import TandemTool
import TandemWidgetModel
import TandemWidgets

/// `tandem widget tap`: the URL a tap on the business widget opens, built by `WidgetLink`
/// as the widget builds it; `tandem host open-url` routes it.
struct WidgetTap: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tap", abstract: "Print the URL a tap on the widget opens.")

    @OptionGroup var home: ExtensionOptions
    @OptionGroup var widget: WidgetInstanceOptions

    @Option(name: .long, help: "What was tapped: a row's key or a screen (omit for the widget as a whole).")
    var target: String?

    @Option(name: .long, help: "Campaign source (utm_source).")
    var campaignSource: String?

    @Option(name: .long, help: "Campaign name (utm_campaign).")
    var campaignName: String?

    func run() async throws {
        let home = try home.home()
        let campaign = WidgetCampaign(source: campaignSource, name: campaignName)
        let link = try WidgetLink(
            scheme: try home.urlScheme(), kind: widget.kind, family: widget.family, configuration: try widget.configuration(in: home),
            target: target, campaign: campaign.isEmpty ? nil : campaign)
        print(try link.url().absoluteString)
    }
}
