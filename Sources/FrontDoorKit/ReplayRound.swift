import FoundationEssentials
import Glibc
import GiphyKit
import SposureKit

/// Replays a folder that ``RecordRound`` wrote, from one stage on, and
/// prints the score; replays never touch the history.
public struct ReplayRound: Sendable, Equatable {
    /// Where a replay starts.
    public enum From: String, Sendable, CaseIterable {
        /// Score the saved events.
        case score
        /// Play the saved image records again (the GIFs from the cache).
        case play
        /// Fetch the saved gif records again.
        case fetch
        /// Run the saved page requests again (the network, and a key).
        case list
    }

    /// The recording.
    public var folder: String
    /// The stage to start from.
    public var from = From.play

    /// A replay of `folder` from `from`.
    public init(folder: String, from: From = .play) {
        self.folder = folder
        self.from = from
    }

    /// gif-play's options as the recording's `play.options` gives them, one a
    /// line, a hold script found relative to the folder (or, for a recording
    /// of the older script, named from where it ran and copied into the folder).
    public func playOptions() throws(RoundFailure) -> [String] {
        let path = folder + "/play.options"
        guard from != .score, access(path, F_OK) == 0 else { return [] }
        let bytes: [UInt8]
        do { bytes = try readFile(path, maxBytes: 1 << 20) } catch { throw RoundFailure(error.description) }
        var options: [String] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true) {
            var option = String(line)
            if option.hasPrefix("script:") {
                var hold = String(option.dropFirst("script:".count))
                if !hold.hasPrefix("/") {
                    let named = folder + "/" + hold, beside = folder + "/" + Paths.lastComponent(hold)
                    hold = access(named, F_OK) == 0 || access(beside, F_OK) != 0 ? named : beside
                }
                var info = stat()
                guard access(hold, R_OK) == 0, stat(hold, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
                    throw RoundFailure("\(hold) is missing: the hold script this recording plays by (named in \(path))")
                }
                option = "script:" + hold
            }
            options.append(option)
        }
        return options
    }

    /// Replays and prints the score; the exit status.
    public func run(_ runner: RoundRunner) throws(RoundFailure) -> Int32 {
        var info = stat()
        guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw RoundFailure("no such folder: \(folder)") }
        let options = try playOptions()
        if from != .score && !options.contains("virtual") && !RoundRunner.haveTerminal() {
            throw RoundFailure("this recording was played live: replaying it needs a terminal (or use --from score)")
        }
        func need(_ file: String) throws(RoundFailure) -> String {
            let path = folder + "/" + file
            guard access(path, R_OK) == 0 else { throw RoundFailure("\(path) is missing: was this folder written by sposure record?") }
            return path
        }
        let score = try runner.path("score")
        let work = try WorkFolder("replay", environment: runner.environment)
        defer { work.remove() }
        let events = work.path + "/events.ndjson"
        let scorer = StageCommand("score", [score, "--no-history"])
        switch from {
        case .score:
            let saved = try need("events.ndjson")
            return try runner.run([scorer], input: .file(saved), events: saved).judged.status
        case .play:
            let images = try need("images.ndjson")
            let play = try runner.path("gif-play")
            return try runner.run([StageCommand("gif-play", [play] + options), .save("events", to: events), scorer],
                                  input: .file(images), events: events).judged.status
        case .fetch:
            let gifs = try need("gifs.ndjson")
            let play = try runner.path("gif-play"), fetch = try runner.path("fetch-images")
            return try runner.run([StageCommand("fetch-images", [fetch, "--quiet"]), StageCommand("gif-play", [play] + options),
                                   .save("events", to: events), scorer], input: .file(gifs), events: events).judged.status
        case .list:
            let pages = try need("pages.ndjson")
            let klipy = (try? readFile(pages, maxBytes: 1 << 30)).map { RoundJudge.contains($0, #""provider":"klipy""#) } ?? false
            try runner.needKey(klipy ? .klipy : .giphy)
            let play = try runner.path("gif-play"), fetch = try runner.path("fetch-images"), lister = try runner.path("giphy-pages")
            return try runner.run([StageCommand("giphy-pages list", [lister, "list", "--quiet"]),
                                   StageCommand("fetch-images", [fetch, "--quiet"]), StageCommand("gif-play", [play] + options),
                                   .save("events", to: events), scorer], input: .file(pages), events: events).judged.status
        }
    }
}
