import CQRencode
import Foundation
import Synchronization

/// A QR code's modules, encoded by libqrencode (never by hand): the SSO page draws it as SVG.
///
/// ```swift
/// let code = try QRCode(encoding: "tandem-demo://sso?config=…")
/// let svg = code.svg(label: "Scan with the Tandem Demo app")
/// ```
struct QRCode: Sendable, Equatable {
    /// How much of the symbol may be damaged and still read: medium (15 %) suits a screen.
    enum Correction: Sendable {
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Modules per side (21 for version 1, 4 more per version).
    let size: Int
    /// The symbol's version, 1 to 40.
    let version: Int
    /// Row-major, `true` for a dark module.
    let modules: [Bool]

    /// libqrencode keeps shared tables it fills on first use; calls are serialised so the
    /// library's build options never matter.
    private static let encoder = Mutex(())

    /// The smallest symbol that holds `text` as 8-bit data.
    ///
    /// - Throws: ``QRCodeError/tooLong(_:)`` past a version 40 symbol's capacity;
    ///   ``QRCodeError/failed(_:)`` for any other refusal of the library.
    init(encoding text: String, correction: Correction = .medium) throws(QRCodeError) {
        guard !text.utf8.contains(0) else { throw .failed("the text contains a NUL byte") }
        let result: Result<(Int, Int, [Bool]), QRCodeError> = Self.encoder.withLock { _ in
            errno = 0
            guard let symbol = QRcode_encodeString8bit(text, 0, correction.level) else {
                return .failure(errno == ERANGE ? .tooLong(text.utf8.count) : .failed(String(cString: strerror(errno))))
            }
            defer { QRcode_free(symbol) }
            let width = Int(symbol.pointee.width)
            let data = UnsafeBufferPointer(start: symbol.pointee.data, count: width * width)
            // Bit 0 of each byte is the module's colour; the other bits describe its role.
            return .success((Int(symbol.pointee.version), width, data.map { $0 & 1 == 1 }))
        }
        let (version, size, modules) = try result.get()
        self.version = version
        self.size = size
        self.modules = modules
    }

    /// Whether the module at column `x`, row `y` is dark.
    func isDark(x: Int, y: Int) -> Bool {
        modules[y * size + x]
    }

    /// The symbol as an SVG image: one path of dark modules on a white square with the quiet
    /// zone the standard asks for (4 modules), scaled by the page, with `label` for screen
    /// readers.
    func svg(label: String, quietZone: Int = 4) -> String {
        let side = size + 2 * quietZone
        var path = ""
        path.reserveCapacity(modules.count * 4)
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                // A run of dark modules on one row is one rectangle.
                var run = 1
                while x + run < size, isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + quietZone) \(y + quietZone)h\(run)v1h-\(run)z"
                x += run
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" role="img" aria-label="\(Self.escape(label))" \
            shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: "\"", with: "&quot;")
    }
}
