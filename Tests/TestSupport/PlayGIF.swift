import Foundation

/// Small animated GIF89a files with known delays, made with ``GIFBuilder``.
///
/// Four colours (black, red, green, blue), every frame covering the whole
/// canvas with a pattern that moves one step a frame, so consecutive frames
/// differ. The LZW data is "uncompressed" (``GIFBuilder/uncompressedLZW(_:minimumCodeSize:)``),
/// so every frame of one size has the same byte length.
public enum PlayGIF {
    /// A `width` × `height` GIF with one frame per entry of `delays` (centiseconds).
    public static func animated(width: Int = 8, height: Int = 8, delays: [Int], loop: Bool = true) -> [UInt8] {
        var gif = GIFBuilder(width: width, height: height, colors: [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]], colorResolution: 1)
        if loop { gif.loop(0) }
        for (index, delay) in delays.enumerated() {
            gif.control(delay: delay, disposal: 1)
            var pixels: [UInt8] = []
            pixels.reserveCapacity(width * height)
            for y in 0..<height {
                for x in 0..<width { pixels.append(UInt8((x / 2 + y / 2 + index) % 4)) }
            }
            gif.image(width: width, height: height, pixels: pixels, uncompressed: true)
        }
        gif.trailer()
        return gif.bytes
    }

    /// Writes `bytes` to `folder/name`; returns the path.
    @discardableResult
    public static func write(_ bytes: [UInt8], _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }
}
