#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which families hide the business rows while the phone is locked: a Lock Screen or StandBy
/// widget is readable by anyone holding the phone, so by default the accessory families show
/// the title, the state and the footer, but no row's key or value (a key is often a customer's
/// name) until the phone is unlocked.
///
/// On a phone the SwiftUI view marks the rows `privacySensitive` in these families, and the
/// system draws placeholders while the device is locked; the SVG renderer draws
/// ``WidgetContent/redacted(in:by:)``, which is what a locked phone shows.
///
/// ```swift
/// let locked = content.redacted(in: .accessoryRectangular, by: .accessoryFamilies)
/// WidgetRenderer().svg(locked, family: .accessoryRectangular)   // no row key or value
/// ```
public struct LockScreenRedaction: Codable, Hashable, Sendable {
    /// The families whose rows are hidden while the phone is locked.
    public var families: Set<WidgetFamily>

    /// A policy hiding the rows of `families`.
    public init(families: Set<WidgetFamily>) {
        self.families = families
    }

    /// The default: every accessory family (Lock Screen, StandBy, watch) hides its rows.
    public static let accessoryFamilies = LockScreenRedaction(families: Set(WidgetFamily.allCases.filter(\.isAccessory)))

    /// Nothing is hidden: for data that is not sensitive at all.
    public static let none = LockScreenRedaction(families: [])

    /// What a hidden key or value is drawn as.
    public static let placeholder = "•••"

    /// Whether `family` hides its rows while the phone is locked.
    public func hidesRows(in family: WidgetFamily) -> Bool {
        families.contains(family)
    }
}

extension WidgetContent {
    /// The families whose rows a view of this content hides while the phone is locked: those
    /// of the app's own choice and of the server's policy the content carries
    /// (``lockScreen``), the stricter of the two winning; the accessory families when neither says.
    ///
    /// - Parameter app: The policy the app passed to its view, if any.
    public func lockScreenRedaction(choosing app: LockScreenRedaction? = nil) -> LockScreenRedaction {
        switch (app, lockScreen) {
        case (nil, nil): .accessoryFamilies
        case (let app?, nil): app
        case (nil, let server?): server
        case (let app?, let server?): LockScreenRedaction(families: app.families.union(server.families))
        }
    }

    /// The content as a locked phone shows it in `family` under its own policy
    /// (``lockScreenRedaction(choosing:)``).
    public func redactedWhenLocked(in family: WidgetFamily) -> WidgetContent {
        redacted(in: family, by: lockScreenRedaction())
    }

    /// The content as a locked phone shows it in `family` under `policy`: in a family the policy
    /// covers, every row's key and value become ``LockScreenRedaction/placeholder`` and its link
    /// goes; the title, the state, the footer and the number of rows stay, so the widget still
    /// says whether its data can be trusted.
    public func redacted(in family: WidgetFamily, by policy: LockScreenRedaction) -> WidgetContent {
        guard policy.hidesRows(in: family) else { return self }
        var copy = self
        copy.rows = rows.map { row in
            WidgetRow(key: LockScreenRedaction.placeholder, value: LockScreenRedaction.placeholder, imageName: row.imageName)
        }
        return copy
    }
}
