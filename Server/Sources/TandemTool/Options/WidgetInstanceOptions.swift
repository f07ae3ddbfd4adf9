import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemSharedContainer
import TandemWidgetModel
import TandemWidgets

/// `--kind`, `--family` and either `--instance` (a configuration from the widget registry) or
/// `--destination` and `--entity-set` given directly: the business widget a command is about.
public struct WidgetInstanceOptions: ParsableArguments {
    @Option(name: .long, help: "The widget's kind.")
    public var kind = "business-data"

    @Option(name: .long, help: "The family: systemSmall, systemMedium, systemLarge, systemExtraLarge, accessoryRectangular, ...")
    public var family: WidgetFamily = .systemMedium

    @Option(name: .long, help: "A configured instance's id (see `tandem widget configure`).")
    public var instance: String?

    @Option(name: .long, help: "The destination, such as sales (without --instance).")
    public var destination: String?

    @Option(name: .long, help: "The entity set, such as SalesOrders (without --instance).")
    public var entitySet: String?

    @Option(name: .long, help: "Rows to ask for (without --instance).")
    public var limit = DataWidgetConfiguration.defaultLimit

    public init() {}

    public func validate() throws {
        if instance != nil, destination != nil || entitySet != nil {
            throw ValidationError("give either --instance or --destination and --entity-set, not both")
        }
        if instance == nil, destination == nil || entitySet == nil {
            throw ValidationError("give --instance, or both --destination and --entity-set")
        }
    }

    /// The configuration the options name: the registry's record for `--instance`, or the given one.
    public func configuration(in home: ExtensionHome) throws -> DataWidgetConfiguration {
        guard let instance else {
            return DataWidgetConfiguration(destination: destination ?? "", entitySet: entitySet ?? "", limit: limit)
        }
        guard let record = try home.container.widgets.configurations().first(where: { $0.id == instance }) else {
            throw CommandFailure("no widget instance \(instance.debugDescription): run `tandem widget configure` first")
        }
        return try DataWidgetConfiguration(parameters: record.parameters)
    }
}

extension WidgetFamily: @retroactive ExpressibleByArgument {}
