/// The sizes a widget can take, mirroring WidgetKit's `WidgetFamily`.
///
/// Each family knows how many business rows it shows and the size it is drawn at, so a
/// provider can fetch only what fits and a renderer can draw it at its real size:
///
/// ```swift
/// let rows = content.rows.prefix(WidgetFamily.systemMedium.rowCapacity)
/// ```
public enum WidgetFamily: String, CaseIterable, Codable, Hashable, Sendable {
    /// The small square home-screen widget.
    case systemSmall
    /// The wide home-screen widget, as tall as the small one.
    case systemMedium
    /// The large home-screen widget, as wide as the medium one and about twice as tall.
    case systemLarge
    /// The extra-large widget, on iPad only.
    case systemExtraLarge
    /// The round Lock Screen and watch complication.
    case accessoryCircular
    /// The rectangular Lock Screen widget: a title and a couple of short lines.
    case accessoryRectangular
    /// A single line of text above the Lock Screen clock.
    case accessoryInline

    /// How many business rows this family shows; rows past it are not drawn.
    public var rowCapacity: Int {
        switch self {
        case .systemSmall: 4
        case .systemMedium: 4
        case .systemLarge: 10
        case .systemExtraLarge: 10
        case .accessoryCircular: 1
        case .accessoryRectangular: 2
        case .accessoryInline: 1
        }
    }

    /// Whether rows show their action buttons (Approve, Reject) in this family: the medium,
    /// large and extra-large cards, where a row has room for a key, a value and two buttons.
    /// The small card and the Lock Screen families show a row's action state but no buttons: a
    /// tap there opens the app (and a Lock Screen tap must not decide anything for a phone's
    /// holder anyway).
    public var showsActions: Bool {
        switch self {
        case .systemMedium, .systemLarge, .systemExtraLarge: true
        case .systemSmall, .accessoryCircular, .accessoryRectangular, .accessoryInline: false
        }
    }

    /// The size in points this family is drawn at.
    ///
    /// iPhone sizes (a 390 × 844 pt iPhone, such as the 6.1-inch iPhone 14 and 15) for every
    /// family but `systemExtraLarge`, which exists on iPad only and uses an iPad size.
    /// The numbers come from the device-size table in Apple's Human Interface Guidelines,
    /// "Widgets"; the real size varies by a few points from device to device.
    public var displaySize: WidgetSize {
        switch self {
        case .systemSmall: WidgetSize(width: 170, height: 170)
        case .systemMedium: WidgetSize(width: 364, height: 170)
        case .systemLarge: WidgetSize(width: 364, height: 382)
        case .systemExtraLarge: WidgetSize(width: 715, height: 382)
        case .accessoryCircular: WidgetSize(width: 76, height: 76)
        case .accessoryRectangular: WidgetSize(width: 172, height: 76)
        case .accessoryInline: WidgetSize(width: 257, height: 26)
        }
    }

    /// Whether this is a Lock Screen (accessory) family, drawn small and without a card footer.
    public var isAccessory: Bool {
        switch self {
        case .accessoryCircular, .accessoryRectangular, .accessoryInline: true
        default: false
        }
    }
}
