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
    ///
    /// A recording is a file someone may send: only the options `record`
    /// writes are taken (`--renderer none`, `--clock virtual`, `--hold
    /// script:FILE`, `--accept-notice`), each checked, and the hold script
    /// must be a file inside the folder. gif-play's other options name files it
    /// would write (`--events`, `--tty`); anything else is refused, exit 64.
    public func playOptions() throws(RoundFailure) -> [String] {
        let path = folder + "/play.options"
        guard from != .score, access(path, F_OK) == 0 else { return [] }
        let bytes: [UInt8]
        do { bytes = try readFile(path, maxBytes: 1 << 20) } catch { throw RoundFailure(error.description) }
        func refuse(_ what: String) -> RoundFailure {
            RoundFailure("\(path): \(RemoteText.visible(what)): sposure record writes only --renderer none, --clock virtual, "
                         + "--hold script:FILE and --accept-notice, so this recording is not replayed", status: 64)
        }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        var options: [String] = []
        var index = 0
        while index < lines.count {
            let option = lines[index]
            if option == "--accept-notice" {
                options.append(option)
                index += 1
                continue
            }
            guard ["--renderer", "--clock", "--hold"].contains(option) else { throw refuse("\(option) is not an option sposure record writes") }
            guard index + 1 < lines.count else { throw refuse("\(option) without its value") }
            var value = lines[index + 1]
            switch option {
            case "--renderer" where value != "none", "--clock" where value != "virtual":
                throw refuse("\(option) \(value)")
            case "--hold":
                guard value.hasPrefix("script:") else { throw refuse("--hold \(value)") }
                value = "script:" + (try holdScript(String(value.dropFirst("script:".count)), namedIn: path))
            default:
                break
            }
            options += [option, value]
            index += 2
        }
        return options
    }

    /// The hold script `named` in `options`: relative to the folder (or, for
    /// the older script's recordings, the copy in the folder under the same
    /// last name), always a regular file inside the folder.
    private func holdScript(_ named: String, namedIn options: String) throws(RoundFailure) -> String {
        let beside = folder + "/" + Paths.lastComponent(named)
        var hold = beside
        if named.hasPrefix("/") {
            if isInside(named) {
                hold = named
            } else if access(beside, F_OK) != 0 {
                throw RoundFailure("\(options): the hold script \(RemoteText.visible(named)) is outside the recording's folder, "
                                   + "so this recording is not replayed", status: 64)
            }
        } else if access(folder + "/" + named, F_OK) == 0 || access(beside, F_OK) != 0 {
            hold = folder + "/" + named
        }
        var info = stat()
        guard access(hold, R_OK) == 0, stat(hold, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw RoundFailure("\(hold) is missing: the hold script this recording plays by (named in \(options))")
        }
        guard isInside(hold) else {
            throw RoundFailure("\(options): the hold script \(RemoteText.visible(named)) is outside the recording's folder, "
                               + "so this recording is not replayed", status: 64)
        }
        return hold
    }

    /// Whether `path`, links and `..` resolved, is inside the recording's folder.
    func isInside(_ path: String) -> Bool {
        guard let root = Self.resolved(folder), let file = Self.resolved(path) else { return false }
        return file.hasPrefix(root == "/" ? "/" : root + "/")
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
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
            guard isInside(path) else {
                throw RoundFailure("\(path) is a link out of the recording's folder, so this recording is not replayed", status: 64)
            }
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
