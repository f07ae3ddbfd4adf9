import Foundation

/// The placeholder app icon a generated project starts with, so the first archive uploads: a
/// 1024 × 1024 PNG (the single size Xcode 14 and later scale from) of a widget with three rows,
/// white on a colour chosen from the bundle id, and the asset catalog that names it.
///
/// Teams replace `AppIcon.png` with their own artwork; nothing else refers to it.
enum AppIcon {
    /// The icon's side in pixels.
    static let size = 1024

    /// The colours a project's icon is drawn on, picked by its bundle id (so two generated apps
    /// on one phone look different, and regenerating one keeps its colour).
    static let backgrounds: [UInt32] = [0x1F6FEB, 0x0E8A6B, 0x8250DF, 0xBF3989, 0xD1242F, 0xBC4C00, 0x1B7C83, 0x3D4B5C]

    /// The colour of `bundleID`'s icon.
    static func background(for bundleID: String) -> UInt32 {
        // FNV-1a: stable across runs and platforms, unlike `Hasher`.
        var hash: UInt32 = 2_166_136_261
        for byte in bundleID.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return backgrounds[Int(hash % UInt32(backgrounds.count))]
    }

    /// The PNG for `bundleID`.
    static func png(for bundleID: String) -> Data {
        PNGImage(width: size, height: size, palette: [background(for: bundleID), 0xFFFFFF]) { x, y in
            isCard(x, y) && !isRow(x, y) ? 1 : 0
        }.data
    }

    /// The asset catalog's `Contents.json` files: the catalog's and the icon set's.
    static let catalogContents = """
        {
          "info" : { "author" : "xcode", "version" : 1 }
        }

        """
    static let iconSetContents = """
        {
          "images" : [
            { "filename" : "AppIcon.png", "idiom" : "universal", "platform" : "ios", "size" : "1024x1024" }
          ],
          "info" : { "author" : "xcode", "version" : 1 }
        }

        """

    // MARK: - Drawing

    /// The white card: a rounded square in the middle.
    private static func isCard(_ x: Int, _ y: Int) -> Bool {
        isInRoundedRectangle(x, y, minX: 212, minY: 212, maxX: 812, maxY: 812, radius: 96)
    }

    /// The three rows cut out of the card, the last one shorter.
    private static func isRow(_ x: Int, _ y: Int) -> Bool {
        isInRoundedRectangle(x, y, minX: 292, minY: 332, maxX: 732, maxY: 396, radius: 32)
            || isInRoundedRectangle(x, y, minX: 292, minY: 480, maxX: 732, maxY: 544, radius: 32)
            || isInRoundedRectangle(x, y, minX: 292, minY: 628, maxX: 592, maxY: 692, radius: 32)
    }

    private static func isInRoundedRectangle(_ x: Int, _ y: Int, minX: Int, minY: Int, maxX: Int, maxY: Int, radius: Int) -> Bool {
        guard x >= minX, x < maxX, y >= minY, y < maxY else { return false }
        let dx = max(minX + radius - x, x - (maxX - 1 - radius), 0)
        let dy = max(minY + radius - y, y - (maxY - 1 - radius), 0)
        return dx * dx + dy * dy <= radius * radius
    }
}
