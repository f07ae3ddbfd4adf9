/// Scans a QR code with the camera: VisionKit's data scanner in an app, a given string in tests.
/// The SSO onboarding step reads the desktop page's code with it.
public protocol QRScanner: Sendable {
    /// The text of the first QR code the camera sees.
    ///
    /// - Throws: `CancellationError` when the user closes the scanner.
    func scan() async throws -> String
}
