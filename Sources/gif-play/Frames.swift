import ArgumentParser
import SposureCLI
import GIFEngine
import PlayerKit
import SposureKit

/// `gif-play frames FILE`: every composited frame of one GIF, as records and
/// optionally as image files.
struct Frames: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a picture (GIF, JPEG, PNG, WebP) and describe, and optionally write, every composited frame.",
        discussion: """
            Decodes FILE with the player's engine and prints, on \
            stdout, one NDJSON "frame" record per displayed frame (index, delay_ms, width, \
            height, sha256 of its RGBA bytes, and path with --out), then one "summary" \
            record (file, frames, width, height, loop_count, duration_ms, and comment when \
            the file has one). stdin is not read.

            The format is told by the file's first bytes, not its name: GIF (giflib), JPEG \
            (libjpeg-turbo), PNG (libpng), WebP still or animated (libwebp, each frame with \
            its duration). A JPEG, a PNG or a still WebP is one frame with delay_ms 0 (the \
            player shows a still for its --still-time); transparency is kept as RGBA, as a \
            GIF's is. With --size a JPEG is decoded at ½, ¼ or ⅛ of its size when that is \
            still no smaller than the fit, as the player does; width and height then say \
            the size decoded. With --approach a still is listed as the player shows it \
            with --approach on: 12 steps from the whole picture to its middle two thirds \
            (1.0x to 1.5x, each scaled back to the picture's size), over --still-time.

            A frame is the whole canvas after its images are composited as browsers do: \
            transparent at the start, each image clipped to the screen, disposal 2 clearing \
            to transparent and 3 restoring what was there. Images with no delay are merged \
            into the next frame (--every-image: every image is a frame). Delays shorter \
            than --min-delay play at 100 ms. loop_count is the file's NETSCAPE2.0 count \
            (0: forever), null when it has none. --size scales each frame to fit WxH cells \
            of --cell pixels; --out also writes each frame to DIR/frame-NNNN.<format>.

            A file that is missing, of none of the four formats, cut short or corrupt gives \
            the frames before the fault, then an "error" record (code not_found, \
            read_failed, not_gif, decode_failed or too_large; "frames": how many came \
            before) instead of the summary, and exit status 1. A picture larger than \
            --max-pixels (read from its header, before anything is allocated) is too_large; \
            so is a file whose frames pass --max-total-pixels, after the frames before.

            Examples:
              gif-play frames cat.gif
              gif-play frames cat.gif --out frames/ --format ppm --size 80x24
              gif-play frames spider.jpg --approach --out steps/ --format ppm

            Exit status:
              0    every frame decoded
              1    the file could not be decoded whole (see its error record)
              2    a frame file or stdout could not be written
              64   usage error
            A closed stdout (`| head`) is a normal end: exit 0, nothing on stderr.
            """)

    @Argument(help: ArgumentHelp("The picture file: GIF, JPEG, PNG or WebP.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Also write each frame into this folder (made if missing) as frame-NNNN.<format>.", valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("File format for --out: pam (RGBA), ppm (RGB, transparency over --background) or rgba (raw bytes).", valueName: "format"))
    var format = FrameFormat.pam

    @Option(help: ArgumentHelp("Scale each frame to fit this many terminal cells, keeping its aspect ratio (area averaging, transparency over --background).", valueName: "WxH"))
    var size: Dimensions?

    @Option(help: ArgumentHelp("Pixels per cell for --size: 1x2 for the half-block renderer, 8x16 for pixel renderers.", valueName: "WxH"))
    var cell = Dimensions(width: 1, height: 2)

    @Option(help: ArgumentHelp("The color transparency is laid over (hex RRGGBB) when scaling or writing PPM.", valueName: "color"))
    var background = "000000"

    @Option(help: ArgumentHelp("The largest canvas accepted, as WxH or a pixel count.", valueName: "pixels"))
    var maxPixels = PixelCount(4096 * 4096)

    @Option(help: ArgumentHelp("The pixel budget of the file: frames × canvas pixels, plus pixels decoded (e.g. 1G).", valueName: "pixels"))
    var maxTotalPixels = PixelCount(1 << 30)

    @Option(help: ArgumentHelp("Delays shorter than this play at 100 ms, as browsers do (0 plays every delay as written).", valueName: "time"))
    var minDelay = TimeSpan(seconds: 0.02)

    @Flag(help: "Make every image block a frame, as browsers play them, instead of merging images that have no delay.")
    var everyImage = false

    @Flag(help: "A still (a picture of one frame) is listed as the steps of gif-play --approach on: coming closer over --still-time.")
    var approach = false

    @Option(help: ArgumentHelp("With --approach: the time the steps take, as the player's --still-time (0.5s to 10m).", valueName: "time"))
    var stillTime = TimeSpan(seconds: 5)

    @Flag(name: .shortAndLong, help: "Print nothing on stderr (the error record still says what failed).")
    var quiet = false

    mutating func validate() throws {
        guard RGBColor(hex: background) != nil else { throw ValidationError("--background must be 6 hex digits, like 1e1e2e.") }
        guard maxPixels.value >= 1 else { throw ValidationError("--max-pixels must be at least 1.") }
        guard maxTotalPixels.value >= 1 else { throw ValidationError("--max-total-pixels must be at least 1.") }
        if let size, size.width < 1 || size.height < 1 { throw ValidationError("--size must be at least 1x1.") }
        guard cell.width >= 1, cell.height >= 1 else { throw ValidationError("--cell must be at least 1x1.") }
        guard (500...600_000).contains(stillTime.milliseconds) else {
            throw ValidationError("--still-time must be from 0.5s to 10m, not \(stillTime).")
        }
    }

    func run() throws {
        var lister = FrameLister(file: file)
        lister.directory = out
        lister.format = format
        lister.size = size.map { ($0.width, $0.height) }
        lister.cell = CellSize(width: cell.width, height: cell.height)
        lister.background = RGBColor(hex: background) ?? .black
        lister.decode.limits.maxCanvasPixels = maxPixels.value
        lister.decode.limits.maxTotalPixels = maxTotalPixels.value
        lister.decode.delays.minimumMs = minDelay.milliseconds
        lister.decode.grouping = everyImage ? .everyImage : .displayed
        lister.quiet = quiet
        if approach { lister.approach = ApproachZoom(displayMs: stillTime.milliseconds) }
        throw ExitCode(lister.run())
    }
}
