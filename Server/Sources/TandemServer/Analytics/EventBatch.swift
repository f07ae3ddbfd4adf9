import Foundation
import TandemProtocol

/// The body of `POST /v1/events`, decoded and checked as a whole before anything is stored:
/// `{"events":[{"id":"<uuid>","name":"widget.tap","timestamp":"<ISO 8601>","properties":{…}}]}`.
struct EventBatch: Sendable {

    /// The events, checked and ready to store.
    let events: [AnalyticsEvent]

    /// Why a batch was refused; the message names the offending event by index.
    struct Invalid: Error, Sendable {
        /// What was wrong.
        let message: String
        /// Whether an event's properties were too large (`413`) rather than malformed (`400`).
        var tooLarge = false
    }

    /// Decodes and checks a body for the app `clientID` (and the user `subject`, if any).
    ///
    /// - Throws: ``Invalid`` for JSON that does not parse or has the wrong shape, an empty or
    ///   oversized batch, or an event with a bad id, name, timestamp or grouping property, or
    ///   more properties or property bytes than `limits` allow.
    init(json: some DataProtocol, clientID: String, subject: String?, limits: AnalyticsLimits = AnalyticsLimits()) throws(Invalid) {
        let body: EventBatchDocument
        do {
            body = try JSONDecoder().decode(EventBatchDocument.self, from: Data(json))
        } catch DecodingError.dataCorrupted {
            throw Invalid(message: "the body is not valid JSON")
        } catch DecodingError.keyNotFound(let key, let context) {
            throw Invalid(message: "\(Self.path(context.codingPath + [key])) is required")
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            throw Invalid(message: "\(Self.path(context.codingPath)) has the wrong type")
        } catch {
            throw Invalid(message: "the body is not a valid event batch")
        }
        guard !body.events.isEmpty else { throw Invalid(message: "events must not be empty") }
        guard body.events.count <= EventBatchRules.maximumEvents else {
            throw Invalid(message: "a batch holds at most \(EventBatchRules.maximumEvents) events, this one has \(body.events.count)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var events: [AnalyticsEvent] = []
        events.reserveCapacity(body.events.count)
        for (index, event) in body.events.enumerated() {
            guard let id = UUID(uuidString: event.id) else { throw Invalid(message: "events[\(index)].id must be a UUID") }
            guard EventBatchRules.isValidName(event.name) else {
                throw Invalid(message: "events[\(index)].name must be 1 to \(EventBatchRules.maximumNameLength) characters of A-Z, a-z, 0-9, '.', '_' or '-'")
            }
            guard let occurredAt = Timestamp(iso8601: event.timestamp) else {
                throw Invalid(message: "events[\(index)].timestamp must be an ISO 8601 date-time with a time zone")
            }
            let properties = event.properties ?? [:]
            guard properties.count <= limits.maximumPropertyCount else {
                throw Invalid(message: "events[\(index)].properties has \(properties.count) entries; at most \(limits.maximumPropertyCount) are allowed")
            }
            var grouping: [String: String] = [:]
            for name in EventBatchRules.groupingProperties {
                switch properties[name] {
                case nil, .null?: continue
                case .string(let value)?: grouping[name] = value
                default: throw Invalid(message: "events[\(index)].properties.\(name) must be a string")
                }
            }
            let propertiesText: String
            do {
                propertiesText = String(decoding: try encoder.encode(properties), as: UTF8.self)
            } catch {
                throw Invalid(message: "events[\(index)].properties cannot be stored")
            }
            guard propertiesText.utf8.count <= limits.maximumPropertyBytes else {
                throw Invalid(
                    message: "events[\(index)].properties takes \(propertiesText.utf8.count) bytes as JSON; at most \(limits.maximumPropertyBytes) are allowed",
                    tooLarge: true)
            }
            events.append(AnalyticsEvent(
                id: id.uuidString.lowercased(), clientID: clientID, subject: subject, name: event.name, occurredAt: occurredAt,
                kind: grouping["kind"], family: grouping["family"], configuration: grouping["configuration"],
                properties: propertiesText))
        }
        self.events = events
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the event batch" }
        return codingPath.reduce("") { path, key in
            if let index = key.intValue { return path + "[\(index)]" }
            return path.isEmpty ? key.stringValue : path + "." + key.stringValue
        }
    }
}
