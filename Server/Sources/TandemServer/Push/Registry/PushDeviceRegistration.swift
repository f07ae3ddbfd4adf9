/// The answer to `PUT /v1/push/devices/{deviceID}`: what the device now has registered.
struct PushDeviceRegistration: Encodable, Sendable, Equatable {
    /// The device.
    var deviceID: String
    /// The APNs environment of its tokens.
    var environment: String
    /// The kinds registered (`host`, `widgets`), sorted.
    var kinds: [String]

    enum CodingKeys: String, CodingKey {
        case deviceID = "device_id"
        case environment
        case kinds
    }
}
