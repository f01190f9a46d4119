import GIFEngine
import RecordKit
import SposureKit

/// `gif-play frames`: decodes one picture (GIF, JPEG, PNG, WebP) as the player does and writes, through
/// a stage, a `frame` record per composited frame (and, with a directory,
/// the frame as a file), then a `summary` record; a file that cannot be
/// decoded whole gives the frames before the fault, then the stage's error
/// record for it.
///
/// ```
/// giflib, libjpeg-turbo, libpng, libwebp ─▶ this thread (decode, scale, hash, write files) ─▶ [output queue] ─▶ writer ─▶ stdout
/// ```
public struct FrameLister: Sendable {
    /// The GIF file.
    public var file: String
    /// Also write each frame into this folder (made if missing).
    public var directory: String?
    /// The format of the frame files.
    public var format = FrameFormat.pam
    /// Scale each frame to fit this many cells, keeping its aspect ratio.
    public var size: (columns: Int, rows: Int)?
    /// Pixels per cell for ``size``.
    public var cell = CellSize.halfBlock
    /// What transparency is laid over when scaling or writing PPM.
    public var background = RGBColor.black
    /// Limits, delay rules, grouping.
    public var decode = DecodeOptions()
    /// Nothing on stderr about the file (its error record still says).
    public var quiet = false
    /// A still (one frame) is listed as the steps of this zoom (`--approach`).
    public var approach: ApproachZoom?

    /// Lists the frames of `file`, with the defaults.
    public init(file: String) {
        self.file = file
    }

    /// Writes the records and returns the exit status: 0 when every frame
    /// decoded (or stdout was closed), 1 when the file could not be decoded
    /// whole, 2 when a frame file or stdout could not be written, 128 + the
    /// signal when interrupted.
    public func run() -> Int32 {
        let stage = Stage(name: "gif-play", options: StageOptions(quiet: quiet))
        stage.start(reading: false)

        /// Reports `failure` after `frames` frames: stderr, an error record, status 1.
        func fail(_ failure: GIFError, frames: Int) -> Int32 {
            if !quiet { stage.diagnostics.error("\(file): \(failure)") }
            var error = ErrorRecord(stage: stage.name, code: failure.code, message: failure.description)
            error.file = file
            error.frames = frames
            stage.output.push(error.record().serialized())
            return stage.drain(failed: true)
        }

        /// A frame file that cannot be written stops the run: status 2.
        func cannotWrite(_ error: FileError) -> Int32 {
            stage.diagnostics.error(error.description)
            stage.requestStop(.fatal)
            return stage.drain(failed: true)
        }

        let decoder: PictureDecoder
        do {
            decoder = try PictureDecoder(contentsOfFile: file, options: decode)
        } catch {
            return fail(error, frames: 0)
        }
        var exporter = FrameExporter(directory: directory, format: format, background: background)
        if let size {
            let fit = { Scaler.fitting(sourceWidth: decoder.info.width, sourceHeight: decoder.info.height,
                                       columns: size.columns, rows: size.rows, cell: cell, background: background) }
            // A JPEG decodes at ½, ¼ or ⅛ when that is still no smaller than the fit, as the player does.
            let fitted = fit()
            decoder.decodeAtLeast(width: fitted.width, height: fitted.height)
            exporter.scaler = fit()
        }
        do {
            try exporter.prepare()
        } catch {
            return cannotWrite(error)
        }

        var frames = 0
        var durationMs = 0
        var source = ApproachSteps(decoder: decoder, zoom: approach)
        // A closed stdout (or a signal) ends the listing early.
        while stage.stopReason == nil {
            let next: Frame?
            do {
                next = try source.next()
            } catch {
                return fail(error, frames: frames)
            }
            guard let frame = next else { break }
            let done: FrameExporter.Exported
            do {
                done = try exporter.export(frame)
            } catch {
                return cannotWrite(error)
            }
            let record = FrameRecord(index: frame.index, delayMs: frame.delayMs, width: done.frame.width,
                                     height: done.frame.height, sha256: done.sha256, path: done.path)
            stage.output.push(record.record().serialized())
            frames += 1
            durationMs += frame.delayMs
        }

        // Stopped early: no summary, which would claim the frames written were all.
        guard stage.stopReason == nil else { return stage.drain(failed: false) }
        let summary = SummaryRecord(file: file, frames: frames, width: decoder.info.width, height: decoder.info.height,
                                    loopCount: decoder.info.loopCount, durationMs: durationMs, comment: decoder.info.comment)
        stage.output.push(summary.record().serialized())
        return stage.drain(failed: false)
    }
}

/// The frames of a picture; a still's (one frame, as the file says: the
/// player's rule) as the steps of `zoom` when one is given.
struct ApproachSteps {
    let decoder: PictureDecoder
    /// The zoom, when the picture is a still.
    let zoom: ApproachZoom?
    private var still: (base: Frame, step: Int)?

    init(decoder: PictureDecoder, zoom: ApproachZoom?) {
        self.decoder = decoder
        self.zoom = decoder.info.frameCount == 1 ? zoom : nil
    }

    /// The next frame; nil after the last.
    mutating func next() throws(GIFError) -> Frame? {
        guard let zoom else { return try decoder.nextFrame() }
        if still == nil {
            guard let frame = try decoder.nextFrame() else { return nil }
            still = (frame, 0)
        }
        guard let (base, step) = still, step < zoom.steps else { return nil }
        still = (base, step + 1)
        let delay = zoom.delay(step: step)
        return Frame(index: step, width: base.width, height: base.height,
                     rgba: zoom.frame(base.rgba, width: base.width, height: base.height, step: step),
                     delayMs: delay, delayCentiseconds: delay / 10, images: base.images)
    }
}
