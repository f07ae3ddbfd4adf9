import Foundation
import TandemProtocol

/// A destination whose data lives in a customer's backend: read for each user, with the user's
/// identity, from a REST, OData V4 or OData V2 service. (The other kind, `stored`, is the rows
/// a back office wrote into the server.) Saved as one JSON document, validated before it is.
///
/// ```json
/// {"name":"erp","title":"ERP","protocolKind":"odata-v2",
///  "baseURL":"https://erp.example.com/sap/opu/odata/sap/ZAPPROVALS_SRV/",
///  "authentication":{"mode":"user-token","audience":"https://erp.example.com"},
///  "entitySets":[{"name":"Approvals","path":"ApprovalSet","query":[],"mapping":{…}}]}
/// ```
public struct BackendDestination: Sendable, Hashable, Codable {
    /// The destination's name in the API's paths (letters, digits, `.`, `_`, `-`).
    public var name: String
    /// What people see.
    public var title: String
    /// The protocol the backend speaks; every entity set's mapping speaks it too.
    public var protocolKind: BackendProtocolKind
    /// The service's root: `https`, or `http` to a loopback address in development.
    public var baseURL: String
    /// How each call proves who it is for.
    public var authentication: BackendAuthentication
    /// The sets widgets can show.
    public var entitySets: [BackendEntitySet]

    /// The most entity sets a destination holds.
    public static let maximumEntitySets = 50
    /// The longest title, in characters.
    public static let maximumTitleLength = 100

    /// A destination.
    public init(
        name: String, title: String, protocolKind: BackendProtocolKind, baseURL: String, authentication: BackendAuthentication,
        entitySets: [BackendEntitySet]
    ) {
        self.name = name
        self.title = title
        self.protocolKind = protocolKind
        self.baseURL = baseURL
        self.authentication = authentication
        self.entitySets = entitySets
    }

    /// Reads and validates a destination's JSON document.
    ///
    /// - Throws: ``BackendDestinationError/malformedDocument(_:)`` for JSON that is not a
    ///   destination, or what ``validate()`` refuses.
    public static func decode(_ document: Data) throws(BackendDestinationError) -> BackendDestination {
        let destination: BackendDestination
        do {
            destination = try JSONDecoder().decode(BackendDestination.self, from: document)
        } catch let error as DecodingError {
            throw .malformedDocument(Self.describe(error))
        } catch {
            throw .malformedDocument("not JSON")
        }
        try destination.validate()
        return destination
    }

    /// The document as it is stored: JSON with sorted keys.
    public func document() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a string, an array or a value of this package's Codable types.
        return (try? encoder.encode(self)) ?? Data()
    }

    /// Checks everything a call would trip over later: the names, the title, the base URL (no
    /// credentials, query or fragment in it; `https`, or `http` only to a loopback host), the
    /// audience, each set's path and query, and each mapping (of the destination's protocol).
    ///
    /// - Throws: ``BackendDestinationError``, naming what is wrong.
    public func validate() throws(BackendDestinationError) {
        guard URLSafeName.isValid(name) else { throw .invalidName(URLSafeName.requirement(for: "destination name")) }
        guard !title.isEmpty, title.count <= Self.maximumTitleLength, !title.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidTitle
        }
        try Self.checkBaseURL(baseURL)
        try authentication.validate()
        guard (1...Self.maximumEntitySets).contains(entitySets.count) else { throw .entitySetCount(entitySets.count) }
        var seen = Set<String>()
        for set in entitySets {
            guard URLSafeName.isValid(set.name) else { throw .invalidName(URLSafeName.requirement(for: "entity set name")) }
            guard seen.insert(set.name).inserted else { throw .duplicateEntitySet(set.name) }
            try Self.checkPath(set.path, of: set.name)
            for item in set.query {
                try Self.check(item, of: set.name, protocolKind: protocolKind)
            }
            guard set.mapping.protocolKind == protocolKind else { throw .mappingProtocolMismatch(entitySet: set.name) }
            do {
                try set.mapping.validate()
            } catch {
                throw .invalidMapping(entitySet: set.name, error)
            }
            try set.actions?.validate(protocolKind: protocolKind, entitySet: set.name)
            if let seconds = set.pollEverySeconds, !BackendEntitySet.pollIntervals.contains(seconds) {
                throw .invalidPolling(entitySet: set.name)
            }
        }
    }

    private static func checkBaseURL(_ text: String) throws(BackendDestinationError) {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host, !host.isEmpty else {
            throw .invalidBaseURL("not an absolute URL")
        }
        guard url.user == nil, url.password == nil else { throw .invalidBaseURL("credentials do not belong in the URL") }
        guard url.query == nil, url.fragment == nil else { throw .invalidBaseURL("no query or fragment; entity sets carry their query") }
        switch scheme {
        case "https": return
        case "http" where ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased()): return
        default: throw .invalidBaseURL("https only (http only to a loopback address, in development)")
        }
    }

    static func checkPath(_ path: String, of entitySet: String) throws(BackendDestinationError) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("://"), !path.contains("?"), !path.contains("#"),
            !segments.contains(where: { $0 == ".." || $0 == "." }),
            !path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\\" })
        else {
            throw .invalidPath(entitySet: entitySet)
        }
    }

    private static func check(_ item: BackendQueryItem, of entitySet: String, protocolKind: BackendProtocolKind) throws(BackendDestinationError) {
        guard !item.name.isEmpty, !item.name.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }),
            !item.value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else {
            throw .invalidQuery(entitySet: entitySet, name: item.name)
        }
        if protocolKind.isOData, !BackendQueryItem.odataOptions.contains(item.name) {
            throw .invalidQuery(entitySet: entitySet, name: item.name)
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        let path: [any CodingKey]
        let reason: String
        switch error {
        case .keyNotFound(let key, let context): (path, reason) = (context.codingPath + [key], "is missing")
        case .typeMismatch(_, let context): (path, reason) = (context.codingPath, "has the wrong type")
        case .valueNotFound(_, let context): (path, reason) = (context.codingPath, "is null")
        case .dataCorrupted(let context): (path, reason) = (context.codingPath, context.debugDescription)
        @unknown default: return "not a destination"
        }
        let location = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return location.isEmpty ? reason : "\(location.hasPrefix(".") ? String(location.dropFirst()) : location) \(reason)"
    }
}
