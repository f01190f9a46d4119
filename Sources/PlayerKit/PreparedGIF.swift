import GIFEngine
import SposureKit

/// How pictures are laid out on the screen now: the room for the picture and
/// how many pixels a cell holds.
public struct ScreenLayout: Sendable, Equatable {
    /// Columns and rows for the picture (the status line not included).
    public var columns: Int
    public var rows: Int
    /// Pixels a cell: 1×2 for half blocks, the real cell size for graphics.
    public var cell: CellSize
    /// What transparent areas are laid over.
    public var background: RGBColor

    /// A layout of `columns` × `rows` cells of `cell` pixels.
    public init(columns: Int, rows: Int, cell: CellSize, background: RGBColor) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        self.cell = cell
        self.background = background
    }
}

/// One GIF decoded and scaled for a layout, ready to play the moment the one
/// before it ends (the "next round" of the original app).
public struct PreparedGIF: Sendable {
    /// The image record it came from.
    public var record: JSONRecord
    /// The pictures, one a displayed frame, already fitted to ``layout``.
    public var pictures: [CellPicture]
    /// How long each shows, in ms.
    public var delays: [Int]
    /// The layout it was fitted to.
    public var layout: ScreenLayout
    /// Where the picture goes, in cells (1-based), to centre it.
    public var origin: (row: Int, col: Int)
    /// The error that cut decoding short, when the file is damaged after its first frames.
    public var truncation: GIFError?

    /// The id shown in events.
    public var id: String { record.string("id") ?? "" }
    /// One pass through every frame.
    public var duration: Int { delays.reduce(0, +) }

    /// Decodes the GIF at `path` and fits every frame to `layout`, holding
    /// only scaled frames. Throws when not even one frame decodes.
    public static func prepare(record: JSONRecord, path: String, layout: ScreenLayout,
                               options: DecodeOptions = DecodeOptions()) throws(GIFError) -> PreparedGIF {
        let decoder = try GIFDecoder(contentsOfFile: path, options: options)
        let scaler = Scaler.fitting(sourceWidth: decoder.info.width, sourceHeight: decoder.info.height,
                                    columns: layout.columns, rows: layout.rows, cell: layout.cell,
                                    background: layout.background)
        // Half blocks need an even pixel height: the last row pads with the background.
        let height = layout.cell == .halfBlock ? (scaler.height + 1) / 2 * 2 : scaler.height
        var pictures: [CellPicture] = []
        var delays: [Int] = []
        var truncation: GIFError?
        while true {
            let frame: Frame?
            do {
                frame = try decoder.nextFrame()
            } catch {
                if pictures.isEmpty { throw error }
                truncation = error
                break
            }
            guard let frame else { break }
            pictures.append(picture(scaler.scale(frame.rgba), width: scaler.width, height: scaler.height,
                                    paddedHeight: height, background: layout.background))
            delays.append(frame.delayMs)
        }
        guard !pictures.isEmpty else { throw GIFError(.corrupt, "the file has no frame") }
        let (columns, rows) = (scaler.width / layout.cell.width, (height + layout.cell.height - 1) / layout.cell.height)
        let origin = (row: 1 + max(0, (layout.rows - rows) / 2), col: 1 + max(0, (layout.columns - columns) / 2))
        return PreparedGIF(record: record, pictures: pictures, delays: delays, layout: layout, origin: origin, truncation: truncation)
    }

    /// RGBA (opaque after scaling over the background) to RGB, padded to `paddedHeight` rows.
    static func picture(_ rgba: [UInt8], width: Int, height: Int, paddedHeight: Int, background: RGBColor) -> CellPicture {
        var rgb = [UInt8](repeating: 0, count: width * paddedHeight * 3)
        rgba.withUnsafeBufferPointer { source in
            rgb.withUnsafeMutableBufferPointer { target in
                for pixel in 0..<(width * height) {
                    target[pixel * 3] = source[pixel * 4]
                    target[pixel * 3 + 1] = source[pixel * 4 + 1]
                    target[pixel * 3 + 2] = source[pixel * 4 + 2]
                }
                for pixel in (width * height)..<(width * paddedHeight) {
                    target[pixel * 3] = background.red
                    target[pixel * 3 + 1] = background.green
                    target[pixel * 3 + 2] = background.blue
                }
            }
        }
        return CellPicture(width: width, height: paddedHeight, rgb: rgb)
    }
}
