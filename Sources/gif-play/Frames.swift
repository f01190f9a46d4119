import ArgumentParser
import SposureCLI
import GIFEngine
import SposureKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `gif-play frames FILE`: every composited frame of one GIF, as records and
/// optionally as image files.
struct Frames: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a GIF and describe, and optionally write, every composited frame.",
        discussion: """
            Decodes FILE with the player's engine (giflib underneath) and prints, on \
            stdout, one NDJSON "frame" record per displayed frame (index, delay_ms, width, \
            height, sha256 of its RGBA bytes, and path with --out), then one "summary" \
            record (file, frames, width, height, loop_count, duration_ms, and comment when \
            the file has one). stdin is not read.

            A frame is the whole canvas after its images are composited as browsers do: \
            transparent at the start, each image clipped to the screen, disposal 2 clearing \
            to transparent and 3 restoring what was there. Images with no delay are merged \
            into the next frame (--every-image: every image is a frame). Delays shorter \
            than --min-delay play at 100 ms. loop_count is the file's NETSCAPE2.0 count \
            (0: forever), null when it has none. --size scales each frame to fit WxH cells \
            of --cell pixels; --out also writes each frame to DIR/frame-NNNN.<format>.

            A file that is missing, not a GIF, cut short or corrupt gives the frames before \
            the fault, then an "error" record (code not_found, read_failed, not_gif, \
            decode_failed or too_large; "frames": how many came before) instead of the \
            summary, and exit status 1.

            Examples:
              gif-play frames cat.gif
              gif-play frames cat.gif --out frames/ --format ppm --size 80x24

            Exit status:
              0    every frame decoded
              1    the file could not be decoded whole (see its error record)
              2    a frame file or stdout could not be written
              64   usage error
            A closed stdout (`| head`) is a normal end: exit 0, nothing on stderr.
            """)

    @Argument(help: ArgumentHelp("The GIF file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Also write each frame into this folder (made if missing) as frame-NNNN.<format>.", valueName: "dir"))
    var out: String?

    @Option(help: ArgumentHelp("File format for --out: pam (RGBA), ppm (RGB, transparency over --background) or rgba (raw bytes).", valueName: "format"))
    var format: OutputFormat = .pam

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

    @Flag(name: .shortAndLong, help: "Print nothing on stderr (the error record still says what failed).")
    var quiet = false

    mutating func validate() throws {
        guard RGBColor(hex: background) != nil else { throw ValidationError("--background must be 6 hex digits, like 1e1e2e.") }
        guard maxPixels.value >= 1 else { throw ValidationError("--max-pixels must be at least 1.") }
        guard maxTotalPixels.value >= 1 else { throw ValidationError("--max-total-pixels must be at least 1.") }
        if let size, size.width < 1 || size.height < 1 { throw ValidationError("--size must be at least 1x1.") }
        guard cell.width >= 1, cell.height >= 1 else { throw ValidationError("--cell must be at least 1x1.") }
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let diagnostics = Diagnostics(tool: "gif-play", quiet: quiet)
        let output = RecordOutput()
        let backgroundColor = RGBColor(hex: background) ?? .black
        var options = DecodeOptions()
        options.limits.maxCanvasPixels = maxPixels.value
        options.limits.maxTotalPixels = maxTotalPixels.value
        options.delays.minimumMs = minDelay.milliseconds
        options.grouping = everyImage ? .everyImage : .displayed

        /// Reports `failure` after `frames` frames: stderr, an error record, status 1.
        func fail(_ failure: GIFError, frames: Int) throws -> Never {
            if !quiet { diagnostics.error("\(file): \(failure)") }
            let record = JSONRecord()
            record.set("kind", "error")
            record.set("stage", "gif-play")
            record.set("code", failure.code)
            record.set("error", failure.description)
            record.set("file", file)
            record.set("frames", frames)
            try output.send(record)
            throw ExitCode.failure
        }

        let decoder: GIFDecoder
        do {
            decoder = try GIFDecoder(contentsOfFile: file, options: options)
        } catch {
            try fail(error, frames: 0)
        }
        var exporter = FrameExporter(directory: out, format: format.frameFormat, background: backgroundColor)
        if let size {
            exporter.scaler = Scaler.fitting(
                sourceWidth: decoder.info.width, sourceHeight: decoder.info.height,
                columns: size.width, rows: size.height,
                cell: CellSize(width: cell.width, height: cell.height), background: backgroundColor)
        }
        do {
            try exporter.prepare()
        } catch {
            diagnostics.error(error.description)
            throw ExitCode(2)
        }

        var frames = 0
        var durationMs = 0
        while true {
            let next: Frame?
            do {
                next = try decoder.nextFrame()
            } catch {
                try fail(error, frames: frames)
            }
            guard let frame = next else { break }
            let done: FrameExporter.Exported
            do {
                done = try exporter.export(frame)
            } catch {
                diagnostics.error(error.description)
                throw ExitCode(2)
            }
            let record = JSONRecord()
            record.set("kind", "frame")
            record.set("index", frame.index)
            record.set("delay_ms", frame.delayMs)
            record.set("width", done.frame.width)
            record.set("height", done.frame.height)
            record.set("sha256", done.sha256)
            if let path = done.path { record.set("path", path) }
            try output.send(record)
            frames += 1
            durationMs += frame.delayMs
        }

        let summary = JSONRecord()
        summary.set("kind", "summary")
        summary.set("file", file)
        summary.set("frames", frames)
        summary.set("width", decoder.info.width)
        summary.set("height", decoder.info.height)
        summary.set("loop_count", decoder.info.loopCount)
        summary.set("duration_ms", durationMs)
        if let comment = decoder.info.comment { summary.set("comment", comment) }
        try output.send(summary)
    }
}

/// `--format`.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case pam, ppm, rgba

    var frameFormat: FrameFormat {
        switch self {
        case .pam: .pam
        case .ppm: .ppm
        case .rgba: .rgba
        }
    }
}
