import Foundation

/// What can keep the APNs stand-in from starting or from managing its devices. A refused push is
/// not an error: it is an answer, recorded as an ``APNsStandInRefusal``.
public enum APNsStandInError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The provider key's PEM is neither a P-256 private key nor a P-256 public key: pass the `.p8`
    /// file Apple issued for that key id, or its public key.
    case invalidProviderKey(keyID: String)
    /// The configuration has no provider key or no bundle id: the stand-in would refuse every push.
    case incompleteConfiguration(String)
    /// The test certificate authority or the server's certificate could not be made (`reason` says
    /// why); nothing was started.
    case certificateCreationFailed(reason: String)
    /// The server could not listen on `host:port` (in use, or not an address of this machine).
    case bindFailed(host: String, port: Int, reason: String)
    /// A device folder could not be created or changed under `path` (missing parent, permissions).
    case deviceDirectoryUnwritable(path: String, reason: String)
    /// No device folder exists for `token` in the devices directory.
    case unknownDevice(token: String)

    /// One line for a person: what went wrong and where.
    public var description: String {
        switch self {
        case .invalidProviderKey(let keyID):
            "provider key \(keyID) is neither a P-256 private key (.p8) nor a P-256 public key in PEM"
        case .incompleteConfiguration(let what):
            "the APNs stand-in configuration is incomplete: \(what)"
        case .certificateCreationFailed(let reason):
            "could not make the stand-in's test certificates: \(reason)"
        case .bindFailed(let host, let port, let reason):
            "could not listen on \(host):\(port): \(reason)"
        case .deviceDirectoryUnwritable(let path, let reason):
            "could not write the device folder \(path): \(reason)"
        case .unknownDevice(let token):
            "no device folder for token \(token)"
        }
    }
}
