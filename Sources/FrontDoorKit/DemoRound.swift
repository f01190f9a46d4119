import FoundationEssentials
import Glibc
import GiphyKit
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
        if judged.status == 0 {
            // The Game Over screen said nothing of what to do next (issue 29 #9).
            _ = writeAll(1, Self.nextLines(environment: runner.environment).map { $0 + "\n" }.joined())
        }
        return judged.status
    }

    /// What the demo's Game Over ends with: the command to type next, the
    /// live game, and with no key set, where to get one.
    ///
    /// ```
    ///
    ///   Next          sposure play   (no key needed: Wikimedia Commons's freely licensed pictures)
    ///                 a free Giphy or Klipy key adds GIFs:
    ///                 export GIPHY_API_KEY=your-key   (https://developers.giphy.com/dashboard/)
    ///                 or export KLIPY_API_KEY=your-key   (https://klipy.com)
    /// ```
    public static func nextLines(environment: [String: String]) -> [String] {
        let label = "  Next          ", indent = String(repeating: " ", count: label.count)
        let chosen = GIFProvider.chosen(environment: environment)
        if let provider = chosen, provider.api.needsKey {
            return ["", label + "sposure play   (your \(provider.displayName) key is set: the live game, a ladder of your fear)"]
        }
        var lines = ["", label + "sposure play, once a free key is set:"]
        if let keyless = chosen {
            // No key: the live game plays the keyless API's pictures; a key adds GIFs.
            lines = ["", label + "sposure play   (no key needed: \(keyless.displayName)'s freely licensed pictures)",
                     indent + "a free Giphy or Klipy key adds GIFs:"]
        }
        for (index, provider) in GIFProvider.keyed.enumerated() {
            let site = provider.keyHelp.split(separator: " ").first { $0.hasPrefix("https://") }.map { "   (\($0))" } ?? ""
            lines.append(indent + (index == 0 ? "" : "or ") + "export \(provider.keyVariable)=your-key" + site)
        }
        return lines
    }
}
