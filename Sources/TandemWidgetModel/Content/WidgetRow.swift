#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One line of business data in a widget: a key and its value.
public struct WidgetRow: Codable, Hashable, Sendable {
    /// What the row is about, shown on the left ("Open orders").
    public var key: String
    /// Its value, shown on the right ("12").
    public var value: String
    /// The name of an image (an SF Symbol or asset on Apple) shown before the key, if any.
    /// Renderers without the image draw nothing for it.
    public var imageName: String?
    /// Where tapping this row leads (built with ``WidgetLink``); `nil` to use the widget's primary link.
    public var link: URL?

    /// A row showing `value` for `key`, with an optional image and tap target.
    public init(key: String, value: String, imageName: String? = nil, link: URL? = nil) {
        self.key = key
        self.value = value
        self.imageName = imageName
        self.link = link
    }
}
