/// Campaign parameters (`utm_*`) a tap link can carry, so a business can tell which widget
/// placement or promotion a tap came from. Every field is optional.
public struct WidgetCampaign: Codable, Hashable, Sendable {
    /// `utm_source`: where the link lives, e.g. "widget".
    public var source: String?
    /// `utm_medium`: the kind of placement, e.g. "home-screen".
    public var medium: String?
    /// `utm_campaign`: the promotion's name.
    public var name: String?
    /// `utm_term`: a keyword.
    public var term: String?
    /// `utm_content`: which variant of the content was tapped.
    public var content: String?

    /// A campaign with the given parameters.
    public init(source: String? = nil, medium: String? = nil, name: String? = nil, term: String? = nil, content: String? = nil) {
        self.source = source
        self.medium = medium
        self.name = name
        self.term = term
        self.content = content
    }

    /// Whether no parameter is set.
    public var isEmpty: Bool { parameters.isEmpty }

    /// The parameters as query items, in a fixed order.
    package var parameters: [(String, String)] {
        [("utm_source", source), ("utm_medium", medium), ("utm_campaign", name), ("utm_term", term), ("utm_content", content)]
            .compactMap { name, value in value.map { (name, $0) } }
    }

    /// The query names a campaign uses.
    package static let parameterNames: Set<String> = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"]

    /// A campaign read from decoded query values, or `nil` if none is present.
    package init?(query: [String: String]) {
        self.init(
            source: query["utm_source"], medium: query["utm_medium"], name: query["utm_campaign"],
            term: query["utm_term"], content: query["utm_content"]
        )
        if isEmpty { return nil }
    }
}
