#if canImport(AVFoundation) && canImport(UIKit) && os(iOS)
import AVFoundation
import UIKit

/// The camera behind ``QRScanner``: shows a full-screen scanner with a close button over the
/// app's top-most screen and returns the first QR code it reads.
///
/// It uses VisionKit's `DataScannerViewController` where the device runs it (iPhone XS and
/// later), and an `AVCaptureSession` preview elsewhere. Needs `NSCameraUsageDescription` in the
/// app's Info.plist (without it the system ends the app when the scanner asks for the camera);
/// the first scan asks the user for the camera. App extensions cannot show the scanner, so the
/// type is unavailable there.
///
/// ```swift
/// let presenters = FlowPresenters(passcode: passcodePrompt, signIn: WebAuthenticationSignIn(), scanner: CameraQRScanner())
/// ```
@available(iOSApplicationExtension, unavailable)
public struct CameraQRScanner: QRScanner {
    /// A scanner over the device's camera.
    public init() {}

    /// Shows the scanner and returns the text of the first QR code it reads; cancelling the
    /// calling task closes the scanner.
    ///
    /// - Throws: `CancellationError` when the user closes the scanner or the task is cancelled,
    ///   ``CameraQRScannerError`` when the camera is refused or unavailable, or there is no window.
    public func scan() async throws -> String {
        try await Self.requireCameraAccess()
        let presentation = Presentation()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Task { @MainActor in presentation.present(resuming: continuation) }
            }
        } onCancel: {
            Task { @MainActor in presentation.finish(.failure(CancellationError())) }
        }
    }

    /// Asks for the camera the first time, and throws when the user or the device refuses it.
    private static func requireCameraAccess() async throws(CameraQRScannerError) {
        switch AVCaptureDevice.authorizationStatus(for: .video) {
        case .authorized:
            return
        case .notDetermined:
            // The completion-handler form: Linux compilers, which type-check this file against
            // the iOS SDK, crash on the imported async form.
            let granted = await withCheckedContinuation { continuation in
                AVCaptureDevice.requestAccess(for: .video) { continuation.resume(returning: $0) }
            }
            guard granted else { throw .cameraDenied }
        case .restricted:
            throw .cameraRestricted
        default:
            throw .cameraDenied
        }
    }

    // MARK: - Presentation

    /// One scan: the scanner on screen and the caller waiting for its answer, resumed exactly
    /// once, after the scanner is dismissed, whichever of a code, the close button, the task's
    /// cancellation or a failure comes first.
    @MainActor
    private final class Presentation {
        private var continuation: CheckedContinuation<String, any Error>?
        private var outcome: Result<String, any Error>?
        private var sheet: UINavigationController?
        /// Whether the sheet's presentation animation is running; UIKit cannot dismiss it then.
        private var isPresenting = false
        #if canImport(VisionKit) && !targetEnvironment(macCatalyst)
        private var coordinator: DataScannerCoordinator?
        #endif

        nonisolated init() {}

        func present(resuming continuation: CheckedContinuation<String, any Error>) {
            self.continuation = continuation
            guard outcome == nil else { return resume() }
            guard let presenter = Self.topViewController() else {
                return finish(.failure(CameraQRScannerError.noWindow))
            }
            let scanner: UIViewController
            do {
                scanner = try makeScanner()
            } catch {
                return finish(.failure(error))
            }
            scanner.navigationItem.leftBarButtonItem = UIBarButtonItem(
                systemItem: .close, primaryAction: UIAction { _ in self.finish(.failure(CancellationError())) }
            )
            let sheet = UINavigationController(rootViewController: scanner)
            sheet.modalPresentationStyle = .fullScreen
            self.sheet = sheet
            isPresenting = true
            presenter.present(sheet, animated: true) { self.didPresent() }
            // UIKit refuses, without calling back, to present over a screen that is leaving.
            if sheet.presentingViewController == nil {
                isPresenting = false
                finish(.failure(CameraQRScannerError.noWindow))
            }
        }

        /// Ends the scan with `result` unless it has ended already.
        func finish(_ result: Result<String, any Error>) {
            guard outcome == nil else { return }
            outcome = result
            #if canImport(VisionKit) && !targetEnvironment(macCatalyst)
            coordinator?.stop()
            coordinator = nil
            #endif
            if !isPresenting { close() }
        }

        private func makeScanner() throws(CameraQRScannerError) -> UIViewController {
            #if canImport(VisionKit) && !targetEnvironment(macCatalyst)
            if DataScannerCoordinator.isUsable {
                let coordinator = DataScannerCoordinator { self.finish($0.mapError { $0 }) }
                self.coordinator = coordinator
                return coordinator.scanner
            }
            #endif
            let scanner = CaptureQRScannerViewController { self.finish(.success($0)) }
            try scanner.configureSession()
            return scanner
        }

        private func didPresent() {
            isPresenting = false
            guard outcome == nil else { return close() }
            #if canImport(VisionKit) && !targetEnvironment(macCatalyst)
            coordinator?.start()
            #endif
        }

        /// Dismisses the scanner if it is on screen, then resumes the caller.
        private func close() {
            guard let sheet, sheet.presentingViewController != nil else { return resume() }
            self.sheet = nil
            sheet.dismiss(animated: true) { self.resume() }
        }

        private func resume() {
            guard let continuation, let outcome else { return }
            self.continuation = nil
            continuation.resume(with: outcome)
        }

        /// The screen on top of the key window of a scene the user is looking at.
        private static func topViewController() -> UIViewController? {
            var top = UIApplication.shared.foregroundKeyWindow?.rootViewController
            while let presented = top?.presentedViewController, !presented.isBeingDismissed {
                top = presented
            }
            return top
        }
    }
}
#endif
