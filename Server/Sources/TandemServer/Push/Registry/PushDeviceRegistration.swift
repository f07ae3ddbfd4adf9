import TandemProtocol

/// The answer to `PUT /v1/push/devices/{deviceID}`: what the device now has registered.
struct PushDeviceRegistration: Encodable, Sendable, Equatable {
    /// The device.
    var deviceID: String
    /// The APNs environment of its tokens.
    var environment: PushEnvironment
    /// The kinds registered, in their order.
    var kinds: [PushRegistration.Kind]

    enum CodingKeys: String, CodingKey {
        case deviceID = "device_id"
        case environment
        case kinds
    }
}
