@testable import TandemServer

extension QRCode {
    /// The symbol as a plain PBM image (`P1`), `scale` pixels a module, quiet zone included:
    /// what a QR reader such as zbarimg reads in tests.
    public func pbm(scale: Int = 4, quietZone: Int = 4) -> String {
        let side = (size + 2 * quietZone) * scale
        var lines = ["P1", "\(side) \(side)"]
        for row in 0..<side {
            let y = row / scale - quietZone
            lines.append((0..<side).map { column in
                let x = column / scale - quietZone
                return (0..<size).contains(x) && (0..<size).contains(y) && isDark(x: x, y: y) ? "1" : "0"
            }.joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
