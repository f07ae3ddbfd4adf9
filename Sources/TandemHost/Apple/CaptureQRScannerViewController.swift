#if canImport(AVFoundation) && canImport(UIKit) && os(iOS)
import AVFoundation
import UIKit

/// The camera preview ``CameraQRScanner`` shows where VisionKit's data scanner cannot run (older
/// devices, Mac Catalyst): an `AVCaptureSession` with a metadata output for QR codes, reporting
/// the first code's text once. The camera runs while the view is on screen.
final class CaptureQRScannerViewController: UIViewController, AVCaptureMetadataOutputObjectsDelegate {
    private let session: AVCaptureSession
    private let preview: AVCaptureVideoPreviewLayer
    /// Starts and stops the session off the main thread: `startRunning()` blocks until the
    /// camera is up.
    private let sessionQueue = DispatchQueue(label: "Tandem.CaptureQRScanner.session")
    private let onCode: @MainActor (String) -> Void
    private var hasReported = false

    /// A scanner that calls `onCode` with the first QR code's text; call ``configureSession()``
    /// before presenting it.
    init(onCode: @escaping @MainActor (String) -> Void) {
        let session = AVCaptureSession()
        self.session = session
        preview = AVCaptureVideoPreviewLayer(session: session)
        self.onCode = onCode
        super.init(nibName: nil, bundle: nil)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        nil
    }

    /// Connects the default camera to a QR-code output.
    ///
    /// - Throws: ``CameraQRScannerError/cameraUnavailable`` when there is no camera, it is in use,
    ///   or it cannot read QR codes.
    func configureSession() throws(CameraQRScannerError) {
        guard let camera = AVCaptureDevice.default(for: .video),
            let input = try? AVCaptureDeviceInput(device: camera)
        else { throw .cameraUnavailable }
        let output = AVCaptureMetadataOutput()
        session.beginConfiguration()
        defer { session.commitConfiguration() }
        guard session.canAddInput(input), session.canAddOutput(output) else { throw .cameraUnavailable }
        session.addInput(input)
        session.addOutput(output)
        // The output offers its types only once it is in a session with a camera.
        guard output.availableMetadataObjectTypes.contains(.qr) else { throw .cameraUnavailable }
        output.metadataObjectTypes = [.qr]
        output.setMetadataObjectsDelegate(self, queue: .main)
    }

    // MARK: - View

    override func viewDidLoad() {
        super.viewDidLoad()
        view.backgroundColor = .black
        preview.videoGravity = .resizeAspectFill
        view.layer.addSublayer(preview)
    }

    override func viewDidLayoutSubviews() {
        super.viewDidLayoutSubviews()
        preview.frame = view.bounds
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        // AVCaptureSession is thread-safe; Apple's samples drive it from a queue of their own.
        nonisolated(unsafe) let session = session
        sessionQueue.async { session.startRunning() }
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        nonisolated(unsafe) let session = session
        sessionQueue.async { session.stopRunning() }
    }

    // MARK: - Metadata

    nonisolated func metadataOutput(
        _ output: AVCaptureMetadataOutput, didOutput metadataObjects: [AVMetadataObject], from connection: AVCaptureConnection
    ) {
        let code = metadataObjects.lazy.compactMap { ($0 as? AVMetadataMachineReadableCodeObject)?.stringValue }.first
        guard let code else { return }
        Task { @MainActor in self.report(code) }
    }

    private func report(_ code: String) {
        guard !hasReported else { return }
        hasReported = true
        onCode(code)
    }
}
#endif
