#if canImport(VisionKit) && canImport(UIKit) && os(iOS) && !targetEnvironment(macCatalyst)
import UIKit
import VisionKit

/// Drives the VisionKit scanner that ``CameraQRScanner`` shows: starts it once it is on screen,
/// and reports once the first QR code it recognizes, or why the camera stopped.
@MainActor
final class DataScannerCoordinator: DataScannerViewControllerDelegate {
    /// The scanner to present; it reads QR codes only and highlights the one it found.
    let scanner: DataScannerViewController
    private let onResult: @MainActor (Result<String, CameraQRScannerError>) -> Void
    private var hasReported = false

    /// Whether this device can run the scanner now: it needs the Neural Engine (iPhone XS and
    /// later) and the camera not to be refused or restricted.
    static var isUsable: Bool {
        DataScannerViewController.isSupported && DataScannerViewController.isAvailable
    }

    /// A scanner for QR codes that calls `onResult` once.
    init(onResult: @escaping @MainActor (Result<String, CameraQRScannerError>) -> Void) {
        scanner = DataScannerViewController(recognizedDataTypes: [.barcode(symbologies: [.qr])], isHighlightingEnabled: true)
        self.onResult = onResult
        scanner.delegate = self
    }

    /// Turns the camera on; call it once the scanner is on screen.
    func start() {
        do {
            try scanner.startScanning()
        } catch {
            report(.failure(Self.error(for: error as? DataScannerViewController.ScanningUnavailable)))
        }
    }

    /// Turns the camera off.
    func stop() {
        scanner.stopScanning()
    }

    func dataScanner(_ dataScanner: DataScannerViewController, didAdd addedItems: [RecognizedItem], allItems: [RecognizedItem]) {
        for case .barcode(let barcode) in addedItems {
            if let text = barcode.payloadStringValue {
                return report(.success(text))
            }
        }
    }

    func dataScanner(
        _ dataScanner: DataScannerViewController, becameUnavailableWithError error: DataScannerViewController.ScanningUnavailable
    ) {
        report(.failure(Self.error(for: error)))
    }

    private func report(_ result: Result<String, CameraQRScannerError>) {
        guard !hasReported else { return }
        hasReported = true
        onResult(result)
    }

    private static func error(for unavailable: DataScannerViewController.ScanningUnavailable?) -> CameraQRScannerError {
        unavailable == .cameraRestricted ? .cameraRestricted : .cameraUnavailable
    }
}
#endif
