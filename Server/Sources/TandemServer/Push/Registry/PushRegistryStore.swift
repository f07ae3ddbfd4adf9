import SQLKit
import TandemPlatform
import TandemProtocol

/// The push registry: each device's tokens per app and user, replaced when they change, removed
/// when APNs says a token is gone, and only ever read together with a live grant.
struct PushRegistryStore: Sendable {
    /// The connector its statements run through.
    let connector: any DatabaseConnector

    private static let columns = "client_id, user_id, device_id, kind, environment, token, family_id, updated_at, time_zone"

    /// Makes `registrations` (one per kind at most, all of the same app, user and device) the
    /// device's whole registration, and `subscriptions` what its widgets show: kinds not among
    /// them are removed, in one transaction. A token is registered once per app and
    /// environment: a registration of it by another user or device of the app (the same
    /// install, signed in again by someone else) is replaced.
    ///
    /// Subscriptions to one set with the same delivery are merged (the most rows, every field
    /// either names; all fields when one names none).
    func replace(
        _ registrations: [PushRegistration], subscriptions: [PushWidgetSubscription] = [], clientID: String, userID: String, deviceID: String
    ) async throws(StorageError) {
        try await connector.performTransaction("registering push tokens") { database in
            try await database.raw("""
                DELETE FROM push_subscriptions
                WHERE client_id = \(bind: clientID) AND user_id = \(bind: userID) AND device_id = \(bind: deviceID)
                """).run()
            for subscription in Self.merged(subscriptions) {
                try await database.raw("""
                    INSERT INTO push_subscriptions (client_id, user_id, device_id, destination, entity_set, delivery, row_limit, fields)
                    VALUES (\(bind: clientID), \(bind: userID), \(bind: deviceID), \(bind: subscription.destination),
                            \(bind: subscription.entitySet), \(bind: subscription.delivery.rawValue), \(bind: Int64(subscription.rows)),
                            \(bind: PushViewDigest.encode(fields: subscription.fields)))
                    """).run()
            }
            let kept = registrations.map(\.kind.rawValue)
            let others: SQLQueryString = kept.isEmpty ? "" : " AND kind NOT IN (\(binds: kept))"
            try await database.raw("""
                DELETE FROM push_registrations
                WHERE client_id = \(bind: clientID) AND user_id = \(bind: userID) AND device_id = \(bind: deviceID)\(others)
                """).run()
            for registration in registrations {
                try await database.raw("""
                    DELETE FROM push_registrations
                    WHERE client_id = \(bind: registration.clientID) AND environment = \(bind: registration.environment.rawValue)
                      AND token = \(bind: registration.token)
                      AND NOT (user_id = \(bind: userID) AND device_id = \(bind: deviceID) AND kind = \(bind: registration.kind.rawValue))
                    """).run()
                try await database.raw("""
                    INSERT INTO push_registrations (\(unsafeRaw: Self.columns))
                    VALUES (\(bind: registration.clientID), \(bind: registration.userID), \(bind: registration.deviceID),
                            \(bind: registration.kind.rawValue), \(bind: registration.environment.rawValue), \(bind: registration.token),
                            \(bind: registration.familyID), \(bind: registration.updatedAt.milliseconds), \(bind: registration.timeZone))
                    ON CONFLICT (client_id, user_id, device_id, kind) DO UPDATE
                    SET environment = excluded.environment, token = excluded.token, family_id = excluded.family_id,
                        updated_at = excluded.updated_at, time_zone = excluded.time_zone
                    """).run()
            }
        }
    }

    /// Removes every token of the app's user on `deviceID` (the user signed out there), and
    /// what its widgets showed.
    ///
    /// - Returns: How many tokens were removed.
    @discardableResult
    func remove(clientID: String, userID: String, deviceID: String) async throws(StorageError) -> Int {
        try await connector.performTransaction("removing a device's push tokens") { database in
            try await database.raw("""
                DELETE FROM push_subscriptions
                WHERE client_id = \(bind: clientID) AND user_id = \(bind: userID) AND device_id = \(bind: deviceID)
                """).run()
            return try await database.raw("""
                DELETE FROM push_registrations
                WHERE client_id = \(bind: clientID) AND user_id = \(bind: userID) AND device_id = \(bind: deviceID)
                RETURNING kind
                """).all().count
        }
    }

    /// Removes the app's registration of `token` in `environment`, as APNs refused it for that
    /// app's topic (`410 Unregistered`, `400 BadDeviceToken`, `DeviceTokenNotForTopic`): never
    /// another app's. With `unregisteredAt` (the `410`'s `timestamp`, when APNs learned the token
    /// was gone), a registration made after that moment stays: the app registered it again since.
    ///
    /// - Returns: How many registrations went (0 or 1).
    @discardableResult
    func remove(
        token: String, clientID: String, environment: PushEnvironment, unregisteredAt: Timestamp? = nil
    ) async throws(StorageError) -> Int {
        let before: SQLQueryString
        if let unregisteredAt {
            before = " AND updated_at <= \(bind: unregisteredAt.milliseconds)"
        } else {
            before = ""
        }
        return try await connector.perform("removing an unregistered push token") { database in
            try await database.raw("""
                DELETE FROM push_registrations
                WHERE client_id = \(bind: clientID) AND environment = \(bind: environment.rawValue) AND token = \(bind: token)\(before)
                RETURNING kind
                """).all().count
        }
    }

    /// The app's registrations whose grant is still live (not revoked), by user and device.
    func liveRegistrations(clientID: String) async throws(StorageError) -> [PushRegistration] {
        let rows = try await connector.perform("reading push registrations") { database in
            try await database.raw("""
                SELECT p.client_id AS client_id, p.user_id AS user_id, p.device_id AS device_id, p.kind AS kind,
                       p.environment AS environment, p.token AS token, p.family_id AS family_id, p.updated_at AS updated_at,
                       p.time_zone AS time_zone
                FROM push_registrations p JOIN token_families f ON f.id = p.family_id
                WHERE p.client_id = \(bind: clientID) AND f.revoked_at IS NULL
                ORDER BY p.user_id, p.device_id, p.kind
                """).all()
        }
        do {
            return try rows.map(Self.registration)
        } catch {
            throw .corruptRecord("push_registrations: \(error)")
        }
    }

    /// Deletes the registrations whose grant was revoked or no longer exists (they ended with
    /// their session), and the subscriptions and pacing of devices left with no registration.
    ///
    /// - Returns: How many registrations were deleted.
    func deleteEndedRegistrations() async throws(StorageError) -> Int {
        try await connector.performTransaction("deleting push registrations of ended sessions") { database in
            let deleted = try await database.raw("""
                DELETE FROM push_registrations
                WHERE family_id NOT IN (SELECT id FROM token_families WHERE revoked_at IS NULL)
                RETURNING kind
                """).all().count
            for table in ["push_subscriptions", "push_pacing"] {
                try await database.raw("""
                    DELETE FROM \(unsafeRaw: table) WHERE NOT EXISTS (
                        SELECT 1 FROM push_registrations p
                        WHERE p.client_id = \(unsafeRaw: table).client_id AND p.user_id = \(unsafeRaw: table).user_id
                          AND p.device_id = \(unsafeRaw: table).device_id)
                    """).run()
            }
            return deleted
        }
    }

    /// What a device's widgets show, as stored: one per set and delivery.
    func subscriptions(clientID: String, userID: String, deviceID: String) async throws(StorageError) -> [PushWidgetSubscription] {
        let rows = try await connector.perform("reading push subscriptions") { database in
            try await database.raw("""
                SELECT destination, entity_set, delivery, row_limit, fields FROM push_subscriptions
                WHERE client_id = \(bind: clientID) AND user_id = \(bind: userID) AND device_id = \(bind: deviceID)
                ORDER BY destination, entity_set, delivery
                """).all()
        }
        do {
            return try rows.map { row in
                let delivery = try row.decode(column: "delivery", as: String.self)
                guard let parsed = PushWidgetSubscription.Delivery(rawValue: delivery) else { throw StorageError.corruptRecord("delivery \(delivery)") }
                return PushWidgetSubscription(
                    destination: try row.decode(column: "destination", as: String.self),
                    entitySet: try row.decode(column: "entity_set", as: String.self),
                    rows: try row.decode(column: "row_limit", as: Int.self),
                    fields: PushViewDigest.decode(fields: try row.decode(column: "fields", as: String.self)), delivery: parsed)
            }
        } catch {
            throw .corruptRecord("push_subscriptions: \(error)")
        }
    }

    /// `subscriptions` with those of one set and delivery merged into one.
    static func merged(_ subscriptions: [PushWidgetSubscription]) -> [PushWidgetSubscription] {
        var merged: [String: PushWidgetSubscription] = [:]
        var order: [String] = []
        for subscription in subscriptions {
            let key = "\(subscription.destination)/\(subscription.entitySet)/\(subscription.delivery.rawValue)"
            guard var existing = merged[key] else {
                merged[key] = subscription
                order.append(key)
                continue
            }
            existing.rows = max(existing.rows, subscription.rows)
            existing.fields = existing.fields.isEmpty || subscription.fields.isEmpty
                ? [] : Array(Set(existing.fields + subscription.fields)).sorted()
            merged[key] = existing
        }
        return order.compactMap { merged[$0] }
    }

    /// The users (by app) whose live registrations' widgets show `entitySet` of `destination`,
    /// each with the most rows one of their widgets shows: whom a polled backend set is read for.
    func subscribers(destination: String, entitySet: String) async throws(StorageError) -> [PushSubscriber] {
        let rows = try await connector.perform("reading a set's subscribers") { database in
            try await database.raw("""
                SELECT s.client_id AS client_id, s.user_id AS user_id, MAX(s.row_limit) AS row_limit
                FROM push_subscriptions s
                JOIN push_registrations p ON p.client_id = s.client_id AND p.user_id = s.user_id AND p.device_id = s.device_id
                JOIN token_families f ON f.id = p.family_id
                WHERE s.destination = \(bind: destination) AND s.entity_set = \(bind: entitySet) AND f.revoked_at IS NULL
                GROUP BY s.client_id, s.user_id ORDER BY s.client_id, s.user_id
                """).all()
        }
        do {
            return try rows.map { row in
                PushSubscriber(
                    clientID: try row.decode(column: "client_id", as: String.self), userID: try row.decode(column: "user_id", as: String.self),
                    rows: Int(try row.decode(column: "row_limit", as: Int64.self)))
            }
        } catch {
            throw .corruptRecord("push_subscriptions: \(error)")
        }
    }

    private static func registration(_ row: any SQLRow) throws -> PushRegistration {
        let kind = try row.decode(column: "kind", as: String.self)
        let environment = try row.decode(column: "environment", as: String.self)
        guard let parsedKind = PushRegistration.Kind(rawValue: kind),
              let parsedEnvironment = PushEnvironment(rawValue: environment)
        else { throw StorageError.corruptRecord("push registration of kind \(kind) in \(environment)") }
        return PushRegistration(
            clientID: try row.decode(column: "client_id", as: String.self),
            userID: try row.decode(column: "user_id", as: String.self),
            deviceID: try row.decode(column: "device_id", as: String.self),
            kind: parsedKind, environment: parsedEnvironment,
            token: try row.decode(column: "token", as: String.self),
            familyID: try row.decode(column: "family_id", as: String.self),
            updatedAt: Timestamp(milliseconds: try row.decode(column: "updated_at", as: Int64.self)),
            timeZone: try row.decode(column: "time_zone", as: String?.self))
    }
}
