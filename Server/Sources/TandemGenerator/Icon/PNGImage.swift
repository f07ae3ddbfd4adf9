import Foundation

/// An opaque image of up to 256 colours encoded as a PNG (ISO/IEC 15948): an indexed image with
/// its palette, no alpha channel (App Store icons may not have one), the pixel rows stored in
/// uncompressed deflate blocks (RFC 1951 §3.2.4) inside a zlib stream (RFC 1950).
///
/// Uncompressed keeps the encoder a page of code with no zlib to link; at one bit per pixel a
/// 1024 × 1024 icon is 129 KB, which Xcode's asset compiler re-encodes anyway.
struct PNGImage {
    /// The colours, as 0xRRGGBB; a pixel is an index into them.
    let palette: [UInt32]
    let width: Int
    let height: Int
    /// Bits per pixel: 1, 2, 4 or 8, enough for ``palette``.
    let bitDepth: Int
    /// The palette index of the pixel at (x, y), x and y from the top left.
    let pixel: (_ x: Int, _ y: Int) -> Int

    init(width: Int, height: Int, palette: [UInt32], pixel: @escaping (_ x: Int, _ y: Int) -> Int) {
        precondition(!palette.isEmpty && palette.count <= 256 && width > 0 && height > 0, "a PNG needs a palette and a size")
        self.width = width
        self.height = height
        self.palette = palette
        self.pixel = pixel
        bitDepth = [1, 2, 4, 8].first { palette.count <= 1 << $0 } ?? 8
    }

    /// The PNG file.
    var data: Data {
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        // Bit depth, colour type 3 (indexed), deflate, adaptive filtering, no interlace.
        header.append(contentsOf: [UInt8(bitDepth), 3, 0, 0, 0])
        var colours = Data()
        for colour in palette {
            colours.append(contentsOf: [UInt8(colour >> 16 & 0xFF), UInt8(colour >> 8 & 0xFF), UInt8(colour & 0xFF)])
        }
        var file = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        file.appendChunk("IHDR", header)
        file.appendChunk("PLTE", colours)
        file.appendChunk("IDAT", Self.zlibStored(rows))
        file.appendChunk("IEND", Data())
        return file
    }

    /// The scanlines, each a filter byte (0, none) and the packed palette indices.
    private var rows: Data {
        let bytesPerRow = (width * bitDepth + 7) / 8
        var rows = Data(capacity: height * (bytesPerRow + 1))
        for y in 0..<height {
            rows.append(0)
            var line = [UInt8](repeating: 0, count: bytesPerRow)
            for x in 0..<width {
                let bit = x * bitDepth
                line[bit / 8] |= UInt8(pixel(x, y) & ((1 << bitDepth) - 1)) << (8 - bitDepth - bit % 8)
            }
            rows.append(contentsOf: line)
        }
        return rows
    }

    /// `bytes` as a zlib stream of stored deflate blocks.
    static func zlibStored(_ bytes: Data) -> Data {
        var stream = Data([0x78, 0x01])  // deflate, 32 KiB window, no dictionary, fastest
        var offset = 0
        repeat {
            let length = min(0xFFFF, bytes.count - offset)
            let isLast = offset + length == bytes.count
            stream.append(isLast ? 1 : 0)
            stream.append(contentsOf: [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8 & 0xFF)])
            stream.append(bytes[bytes.startIndex + offset..<bytes.startIndex + offset + length])
            offset += length
        } while offset < bytes.count
        stream.appendBigEndian(adler32(bytes))
        return stream
    }

    /// RFC 1950's Adler-32 checksum.
    static func adler32(_ bytes: Data) -> UInt32 {
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// The CRC-32 of ISO 3309 that PNG chunks carry.
    static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}

private extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }

    mutating func appendChunk(_ type: String, _ body: Data) {
        appendBigEndian(UInt32(body.count))
        let typed = Data(type.utf8) + body
        append(typed)
        appendBigEndian(PNGImage.crc32(typed))
    }
}
