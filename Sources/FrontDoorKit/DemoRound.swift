import FoundationEssentials
import Glibc
import SposureKit

/// The offline demo: `gif-play samples` draws the sample GIFs, and the saved
/// stream of them goes through `fetch-images --allow-file | gif-play |
/// score`. Needs nothing but the installed tools: no key, no network, no clone.
public struct DemoRound: Sendable, Equatable {
    /// Play by script even on a terminal.
    public var headless = false
    /// Keep the work folder, and say where it is.
    public var keep = false

    /// A demo on a terminal when there is one.
    public init(headless: Bool = false, keep: Bool = false) {
        self.headless = headless
        self.keep = keep
    }

    /// The hold script of a headless demo: 9 seconds of play, a second after the start.
    public static let holdScript = #"{"t_ms":1000,"down":true}"# + "\n" + #"{"t_ms":10000,"down":false}"# + "\n"

    /// Draws the samples, plays them and prints the score; the exit status.
    public func run(_ runner: RoundRunner) throws(RoundFailure) -> Int32 {
        let play = try runner.path("gif-play"), fetch = try runner.path("fetch-images"), score = try runner.path("score")
        let work = try WorkFolder("demo", environment: runner.environment)
        defer { if !keep { work.remove() } }
        let stream = work.path + "/stream.ndjson"
        let samples = try runner.run([StageCommand("gif-play samples", [play, "samples", "--out", work.path + "/gifs", "--repeat-count", "2"])],
                                     input: .null, output: .file(stream), events: "/dev/null").judged
        guard samples.status == 0 else { return samples.status }

        var player = [play]
        if headless || !RoundRunner.haveTerminal() {
            let hold = work.path + "/hold.ndjson"
            do { try writeAtomically(Array(Self.holdScript.utf8), to: hold, as: .program) } catch {
                throw RoundFailure(error.description)
            }
            runner.diagnostics.warning("no terminal to hold on; holding by script on a virtual clock (1 s to 10 s)")
            player += ["--renderer", "none", "--clock", "virtual", "--hold", "script:" + hold]
        }
        let events = work.path + "/events.ndjson"
        let judged = try runner.run([
            StageCommand("fetch-images", [fetch, "--allow-file", "--quiet", "--cache", work.path + "/cache"]),
            StageCommand("gif-play", player),
            .save("events", to: events),
            StageCommand("score", [score, "--no-history", "--format", "text"]),
        ], input: .file(stream), events: events).judged
        if keep { runner.diagnostics.warning("work folder kept: \(work.path)") }
        return judged.status
    }
}
