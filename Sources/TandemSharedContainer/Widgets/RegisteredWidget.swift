#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One widget instance the user has installed, and how it is configured — what the host needs
/// to know which data to keep fresh. Kept in the container's `configurations/` folder, one file
/// per instance. Not secret: it says which data, never the data. (Named so that it never meets
/// WidgetKit's `WidgetConfiguration` in a widget's file, which imports both modules.)
///
/// ```swift
/// try container.widgets.register(RegisteredWidget(
///     id: "orders-eu-medium", kind: "orders", family: "systemMedium",
///     parameters: ["destination": "eu", "entitySet": "open-orders"]))
/// let installed = try container.widgets.configurations()
/// ```
public struct RegisteredWidget: Codable, Sendable, Equatable, Identifiable {
    /// The instance's identifier (`[A-Za-z0-9._-]`), stable across reloads.
    public var id: String
    /// The widget's kind, as declared in the extension.
    public var kind: String
    /// The size family, such as `systemSmall` or `accessoryRectangular`.
    public var family: String
    /// The user's configuration (an intent's parameters), such as destination and entity set.
    public var parameters: [String: String]

    /// Describes a widget instance.
    ///
    /// - Parameters:
    ///   - id: A stable identifier of the instance, usable as a file name.
    ///   - kind: The widget's kind.
    ///   - family: The size family.
    ///   - parameters: The user's configuration.
    public init(id: String, kind: String, family: String, parameters: [String: String] = [:]) {
        self.id = id
        self.kind = kind
        self.family = family
        self.parameters = parameters
    }

    static let recordKind = "configuration"

    static func path(id: String) -> String { "configurations/\(id).configuration" }
}
