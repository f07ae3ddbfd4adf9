import Mustache

/// The server's HTML pages, rendered from the Mustache templates in `Web/Templates` (compiled
/// into the binary). Templates escape every value (`{{value}}`); the only unescaped insertion
/// is markup the server made itself, such as a QR code's SVG.
///
/// ```swift
/// let pages = try WebPages()
/// let html = pages.render(.message, MessagePage(heading: "Cannot sign in", message: reason))
/// ```
struct WebPages: Sendable {
    private let library: MustacheLibrary

    /// Parses every template.
    ///
    /// - Throws: ``WebPageError/template(_:_:)`` naming a template that does not parse (a
    ///   build defect: the tests render every page).
    init() throws(WebPageError) {
        var library = MustacheLibrary()
        for template in WebTemplate.allCases {
            do {
                try library.register(String(decoding: template.source, as: UTF8.self), named: template.rawValue)
            } catch {
                throw .template(template.rawValue, "\(error)")
            }
        }
        self.library = library
    }

    /// `template` rendered with `model` (a struct whose properties the template names).
    func render(_ template: WebTemplate, _ model: Any) -> String {
        // Every template was registered in `init`, so rendering cannot miss one.
        library.render(model, withTemplate: template.rawValue) ?? ""
    }
}
