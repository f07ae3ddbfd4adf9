#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TandemProtocol

/// A widget's configuration as a tap link carries it: a JSON object, sent as base64url in `config=`.
///
/// The router cannot know every widget's configuration type, so a route holds the payload and
/// the host decodes it as the type the widget's kind uses:
///
/// ```swift
/// if case .widgetTap(let tap) = route {
///     let choice = try tap.configuration.decode(as: OrdersConfiguration.self)
/// }
/// ```
public struct WidgetConfigurationPayload: Hashable, Sendable {
    /// The JSON bytes (keys sorted when built from a value, so one configuration has one spelling).
    public let json: Data

    /// The payload of `configuration`.
    ///
    /// - Throws: ``DeepLinkError/undecodableConfiguration`` if it does not encode as a JSON object.
    public init<Configuration: Encodable>(_ configuration: Configuration) throws(DeepLinkError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = ISO8601Time.encodingStrategy(fractionalSeconds: false)
        guard let data = try? encoder.encode(configuration) else { throw .undecodableConfiguration }
        try self.init(json: data)
    }

    /// A payload of `json`, which must be a JSON object.
    ///
    /// - Throws: ``DeepLinkError/undecodableConfiguration`` otherwise.
    public init(json: Data) throws(DeepLinkError) {
        // JSONDecoder rather than JSONSerialization: the widget decodes with it anyway, and the
        // second parser alone adds most of a megabyte to the extension's resident memory.
        guard (try? JSONDecoder().decode(JSONObject.self, from: json)) != nil else { throw .undecodableConfiguration }
        self.json = json
    }

    /// Decodes from a whole, valid JSON document that is an object, whatever its keys.
    private struct JSONObject: Decodable {
        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            _ = try decoder.container(keyedBy: AnyKey.self)
        }
    }

    /// The payload decoded as `type`.
    ///
    /// - Throws: ``DeepLinkError/undecodableConfiguration`` if the JSON does not fit the type.
    public func decode<Configuration: Decodable>(as type: Configuration.Type) throws(DeepLinkError) -> Configuration {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = ISO8601Time.decodingStrategy
        guard let value = try? decoder.decode(type, from: json) else { throw .undecodableConfiguration }
        return value
    }

    /// The payload as the `config=` value: unpadded base64url.
    public var base64URL: String { Base64URL.encode(json) }
}
