import CGif

/// An image's 256 colors as little-endian RGBA words, ready to store.
///
/// Indices past the end of the color table, and every index when there is no
/// table at all, are opaque black, as browsers and the pygif suite render them.
/// A transparent index outside the table leaves every pixel opaque.
struct ColorLookup {
    /// RGBA for each index, as a `UInt32` whose bytes in memory are R, G, B, A.
    var colors: [UInt32]
    /// The index drawn as transparent (left untouched on the canvas), if any.
    var transparent: UInt8?

    static let opaqueBlack = UInt32(0xFF00_0000).littleEndian

    /// A lookup from giflib's color map.
    init(map: UnsafeMutablePointer<ColorMapObject>?, transparentIndex: Int?) {
        colors = [UInt32](repeating: Self.opaqueBlack, count: 256)
        var count = 0
        if let map, let entries = map.pointee.Colors {
            count = min(Int(map.pointee.ColorCount), 256)
            for index in 0..<count {
                let color = entries[index]
                colors[index] = Self.pack(color.Red, color.Green, color.Blue)
            }
        }
        transparent = Self.transparent(transparentIndex, tableCount: count)
    }

    /// A lookup from a color table's bytes in the file.
    init(span: ColorTableSpan?, in bytes: UnsafeRawBufferPointer, transparentIndex: Int?) {
        colors = [UInt32](repeating: Self.opaqueBlack, count: 256)
        var count = 0
        if let span, span.offset >= 0, span.offset + 3 * span.count <= bytes.count {
            count = min(span.count, 256)
            for index in 0..<count {
                let at = span.offset + 3 * index
                colors[index] = Self.pack(bytes[at], bytes[at + 1], bytes[at + 2])
            }
        }
        transparent = Self.transparent(transparentIndex, tableCount: count)
    }

    /// Stores the color of each of `count` indices at `target`, a word a
    /// pixel: an image with no transparent index painted, a row or a canvas.
    @inline(__always)
    static func paint(_ indices: UnsafePointer<UInt8>, count: Int, colors: UnsafePointer<UInt32>, into target: UnsafeMutableRawPointer) {
        for pixel in 0..<count {
            target.storeBytes(of: colors[Int(indices[pixel])], toByteOffset: pixel * 4, as: UInt32.self)
        }
    }

    private static func transparent(_ index: Int?, tableCount: Int) -> UInt8? {
        guard let index, index >= 0, index < tableCount, index < 256 else { return nil }
        return UInt8(index)
    }

    private static func pack(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> UInt32 {
        (UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | 0xFF00_0000).littleEndian
    }
}
