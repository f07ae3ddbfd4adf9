/// Why a QR code could not be made.
enum QRCodeError: Error, Equatable, CustomStringConvertible {
    /// `bytes` do not fit in the largest symbol (version 40).
    case tooLong(Int)
    /// libqrencode refused, for the reason given.
    case failed(String)

    var description: String {
        switch self {
        case .tooLong(let bytes): "\(bytes) bytes do not fit in a QR code"
        case .failed(let reason): "the QR code could not be made: \(reason)"
        }
    }
}
