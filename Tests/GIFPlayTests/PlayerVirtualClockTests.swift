// End-to-end runs of the built `gif-play` in headless, replayable mode:
// `--renderer none --clock virtual --hold always|script:FILE`, on small
// animated GIFs written here with known delays. Virtual time advances only by
// the frame delays, the hold script and the records' `at_ms`, so every event
// line is known exactly in advance (docs/stream-format.md).

import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// MARK: - Records and expected events

/// JSON string literal for `text` (enough for the ids, paths and sections used here).
func jsonString(_ text: String) -> String { quoteJSON(text) }

/// What starts the status line on a 24-row screen, as gif-play draws it.
let statusLineStart = "\u{1B}[24;1H\u{1B}[0m\u{1B}[2m"

/// Every status line drawn in `drawn` (a `--tty` capture), in order.
func statusTexts(_ drawn: String) -> [String] {
    let statusEnd = "\u{1B}[0m\u{1B}[K"
    var texts: [String] = []
    var rest = drawn[...]
    while let start = rest.range(of: statusLineStart), let end = rest[start.upperBound...].range(of: statusEnd) {
        texts.append(String(rest[start.upperBound..<end.lowerBound]))
        rest = rest[end.upperBound...]
    }
    return texts
}

/// An `image` record line as fetch-images writes it (the fields the player reads).
func imageRecord(id: String, path: String, section: String? = "spiders", query: String? = nil,
                 atMs: Int? = nil, extra: String = "") -> String {
    var fields = ["\"kind\":\"image\"", "\"id\":\(jsonString(id))"]
    if let section { fields.append("\"section\":\(jsonString(section))") }
    if let query { fields.append("\"query\":\(jsonString(query))") }
    fields.append("\"path\":\(jsonString(path))")
    if let atMs { fields.append("\"at_ms\":\(atMs)") }
    if !extra.isEmpty { fields.append(extra) }
    return "{" + fields.joined(separator: ",") + "}"
}

/// The event lines gif-play writes, in its field order (docs/stream-format.md).
enum Event {
    static func start(hold: String = "always", onRelease: String = "end", at: String? = nil,
                      renderer: String = "none", symbols: String? = nil, cols: Int = 80, rows: Int = 24) -> String {
        let atField = at.map { "\"at\":\(jsonString($0))," } ?? ""
        let symbolsField = symbols.map { "\"symbols\":\(jsonString($0))," } ?? ""
        return "{\"kind\":\"session\",\"event\":\"start\",\(atField)\"clock\":\"virtual\",\"hold\":\"\(hold)\","
            + "\"renderer\":\"\(renderer)\",\(symbolsField)\"cols\":\(cols),\"rows\":\(rows),\"on_release\":\"\(onRelease)\"}"
    }

    static func shown(_ id: String, section: String = "spiders", query: String? = nil, start: Int, end: Int,
                      exposed: Int, frames: Int, completed: Bool) -> String {
        let queryField = query.map { "\"query\":\(jsonString($0))," } ?? ""
        return "{\"kind\":\"shown\",\"id\":\(jsonString(id)),\"section\":\(jsonString(section)),\(queryField)"
            + "\"start_ms\":\(start),\"end_ms\":\(end),\"exposed_ms\":\(exposed),\"frames\":\(frames),\"completed\":\(completed)}"
    }

    static func hold(_ down: Int, _ up: Int) -> String {
        "{\"kind\":\"hold\",\"down_ms\":\(down),\"up_ms\":\(up)}"
    }

    static func end(_ t: Int, _ reason: String) -> String {
        "{\"kind\":\"session\",\"event\":\"end\",\"t_ms\":\(t),\"reason\":\"\(reason)\"}"
    }
}

/// A line parsed as a JSON object (for records whose message text is the implementation's).
func jsonObject(_ line: String) -> [String: Any]? {
    (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
}

// MARK: - The tests

/// The delays used throughout: A is 100+200+300 ms (600), B is 4 × 50 ms (200).
private let delaysA = [10, 20, 30]
private let delaysB = [5, 5, 5, 5]

@Suite struct PlayerVirtualClockTests {
    static let headless = ["--renderer", "none", "--clock", "virtual"]

    /// Runs gif-play headless with `arguments`, feeding `lines` (each ended by `\n`).
    func play(_ arguments: [String], lines: [String] = [], hold: String = "always",
              in folder: URL? = nil) throws -> StageProcess.Result {
        let input = lines.map { $0 + "\n" }.joined()
        let result = try StageProcess(
            "gif-play", arguments: Self.headless + ["--hold", hold] + arguments,
            stdin: Array(input.utf8), currentDirectory: folder
        ).wait(timeout: 60)
        #expect(!result.timedOut, "gif-play did not finish: \(result)")
        return result
    }

    /// Writes A (600 ms) and B (200 ms) into `folder`.
    func writeAB(in folder: URL) throws -> (a: String, b: String) {
        (try PlayGIF.write(PlayGIF.animated(delays: delaysA), "a.gif", in: folder),
         try PlayGIF.write(PlayGIF.animated(delays: delaysB), "b.gif", in: folder))
    }

    /// Writes a hold script; returns `script:PATH`.
    func script(_ holds: [(Int, Bool)], in folder: URL, name: String = "holds.ndjson") throws -> String {
        let text = holds.map { "{\"t_ms\":\($0.0),\"down\":\($0.1)}\n" }.joined()
        let path = folder.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return "script:" + path
    }

    // Exposure, scripted holds, stalls, records passed through, bad input,
    // FIFOs, the status line drawn into a --tty file and the command line are
    // cases as data: Tests/Fixtures/gif-play/ (GoldenTests). What stays here
    // needs more than arguments and stdin: repeated runs, signals, the corpus.

    /// When the round ends, the records up to the next GIF still come out
    /// (errors about the images after the last one shown); nothing beyond it,
    /// so how far the reading ahead got never changes the events.
    @Test func theSameInputGivesTheSameEventsWhateverWasReadAhead() throws {
        try withTemporaryDirectory { folder in
            let (a, b) = try writeAB(in: folder)
            let error = "{\"kind\":\"error\",\"stage\":\"fetch-images\",\"code\":\"http_404\",\"id\":\"x\",\"error\":\"HTTP 404\"}"
            let holds = try script([(0, true), (700, false)], in: folder)
            let lines = [imageRecord(id: "A", path: a), imageRecord(id: "B", path: b), error, error, imageRecord(id: "A2", path: a), error]
            let runs = try (0..<12).map { _ in try play([], lines: lines, hold: holds).stdout }
            #expect(Set(runs).count == 1, "\(Set(runs).map { String(decoding: $0, as: UTF8.self) })")
            // Which events: Tests/Fixtures/gif-play/records-up-to-the-next-gif-still-come-out.
        }
    }

    /// Issue 16 #3: on a virtual clock waiting for the next record (stdin
    /// open, nothing coming) the first SIGTERM was ignored; only a second one
    /// ended it, without its records. A signal while the decoder is busy with
    /// the next GIF (or stuck: it used to be, on a FIFO) left the round
    /// waiting for it. The stop closes the gif buffer and the stage's reader
    /// sees it while stdin is quiet: the first ends the round at once, with
    /// the events so far. The busy GIF is a 3000×3000 canvas whose first
    /// 0.3 s are 15 frames, each composited and scaled whole: many seconds
    /// of decoding in a debug build.
    @Test(arguments: [false, true])
    func aSignalWhileTheRoundWaitsEndsItAtOnceWithTheEventsSoFar(decoderBusy: Bool) throws {
        try withTemporaryDirectory { folder in
            let (a, _) = try writeAB(in: folder)
            var input = imageRecord(id: "A", path: a) + "\n"
            if decoderBusy {
                var big = GIFBuilder(width: 3000, height: 3000, colors: [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]],
                                     colorResolution: 1)
                big.loop(0)
                for index in 0..<20 {
                    big.control(delay: 2)
                    big.image(left: index, top: 0, width: 1, height: 1, pixels: [UInt8(1 + index % 3)])
                }
                big.trailer()
                input += imageRecord(id: "BIG", path: try PlayGIF.write(big.bytes, "big.gif", in: folder)) + "\n"
            }
            let process = try StageProcess("gif-play", arguments: Self.headless + ["--hold", "always"],
                                           stdin: Array(input.utf8), keepStdinOpen: !decoderBusy)
            // A played to its end: the round now waits for the next record, or BIG's first frames.
            #expect(process.waitForStdoutLines(2, timeout: 30), "\(process.stdoutLinesSoFar)")
            usleep(300_000)
            process.send(signal: SIGTERM)
            let result = process.wait(timeout: decoderBusy ? 8 : 20)
            #expect(!result.timedOut, "the first SIGTERM did not end the round at once: \(result)")
            #expect(result.exitCode == 143, "\(result)")
            #expect(result.stdoutLines == [
                Event.start(),
                Event.shown("A", start: 0, end: 600, exposed: 600, frames: 3, completed: true),
                Event.hold(0, 600),
                Event.end(600, "interrupted"),
            ])
        }
    }

    // MARK: The pygif corpus

    /// Skipped without ../shared/corpus; under CI its absence fails.
    static let animation = Corpus.pygif + "/animation.gif"

    @Test(.enabled(if: Corpus.use(Self.animation), Comment(rawValue: Corpus.absentReason(Corpus.pygif))))
    func pygifAnimationPlaysFourFramesOf500ms() throws {
        let path = Corpus.path(Self.animation)
        let result = try play(["--loops", "2"], lines: [imageRecord(id: "animation", path: path)])
        #expect(result.exitCode == 0, "\(result)")
        #expect(result.stdoutLines == [
            Event.start(),
            Event.shown("animation", start: 0, end: 4000, exposed: 4000, frames: 8, completed: true),
            Event.hold(0, 4000),
            Event.end(4000, "eof"),
        ])
    }

    @Test(.enabled(if: Corpus.use(Self.animation), Comment(rawValue: Corpus.absentReason(Corpus.pygif))))
    func pygifAnimationUnderAScriptedHold() throws {
        let path = Corpus.path(Self.animation)
        try withTemporaryDirectory { folder in
            let holds = try script([(250, true), (1700, false)], in: folder)
            let result = try play([], lines: [imageRecord(id: "animation", path: path)], hold: holds)
            #expect(result.stdoutLines == [
                Event.start(hold: "script"),
                Event.shown("animation", start: 250, end: 1700, exposed: 1450, frames: 3, completed: false),
                Event.hold(250, 1700),
                Event.end(1700, "released"),
            ])
        }
    }
}
