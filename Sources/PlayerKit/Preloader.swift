import Foundation
import GIFEngine
import SposureKit

/// What the player takes from the gif buffer, in input order.
public enum BufferItem: @unchecked Sendable {
    /// A GIF ready to play; `availableAt` is its arrival on a virtual clock
    /// (the record's `at_ms`, else 0).
    case gif(PreparedGIF, availableAt: Int)
    /// A line to write as it is (a record passed through, or an error record).
    case line([UInt8])
}

/// The decoder thread: keeps the next GIFs decoded and fitted to the screen
/// in a bounded gif buffer, so the player never waits on giflib between GIFs.
///
/// ```
/// [input queue] ─▶ preloader thread (giflib, scaling) ─▶ [gif buffer, --buffer N] ─▶ player
/// ```
///
/// Records that are not images go through the same buffer, so they reach
/// stdout in input order with the player's events.
public final class Preloader: @unchecked Sendable {
    /// The gif buffer.
    public let buffer: BoundedQueue<BufferItem>
    private let stage: Stage
    private let configuration: PlayerConfiguration
    private let lock = NSLock()
    private var currentLayout: ScreenLayout

    /// A preloader reading `stage`'s input, fitting to `layout`.
    public init(stage: Stage, configuration: PlayerConfiguration, layout: ScreenLayout) {
        self.stage = stage
        self.configuration = configuration
        currentLayout = layout
        buffer = BoundedQueue(capacity: max(1, configuration.buffer))
    }

    /// The layout new GIFs are fitted to; set on resize.
    public var layout: ScreenLayout {
        get { lock.withLock { currentLayout } }
        set { lock.withLock { currentLayout = newValue } }
    }

    /// Starts the thread.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "preloader"
        thread.start()
    }

    private func run() {
        while case let batch = stage.input.popBatch(max: 1), !batch.isEmpty {
            for item in batch {
                guard buffer.push(prepare(item)) else { return }
            }
        }
        buffer.close()
    }

    /// Turns one input item into what the player needs.
    public func prepare(_ item: InputItem) -> BufferItem {
        switch item {
        case .bad(let bad):
            return .line(stage.badLineRecord(bad))
        case .passThrough(_, let raw):
            return .line(raw)
        case .record(let input):
            guard input.record.kind == "image" else { return .line(input.raw) }
            guard let path = input.record.string("path"), !path.isEmpty else {
                let error = stage.makeError(input.record, code: "bad_record", message: "an image record needs a string path")
                return .line(error.serialized())
            }
            do {
                let gif = try PreparedGIF.prepare(record: input.record, path: path, layout: layout, options: configuration.decode)
                if let truncation = gif.truncation {
                    stage.diagnostics.warning("stdin:\(input.line): \(path): \(truncation.message) (playing the \(gif.pictures.count) frames before it)")
                }
                return .gif(gif, availableAt: input.record.int("at_ms") ?? 0)
            } catch {
                stage.diagnostics.warning("stdin:\(input.line): \(error.code): \(path): \(error.message)")
                let record = stage.makeError(input.record, code: error.code == "decode_failed" ? "decode_failed" : error.code, message: error.message)
                return .line(record.serialized())
            }
        }
    }
}
