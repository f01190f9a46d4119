import FoundationEssentials
import Glibc
import GiphyKit
import SposureKit

/// A round played like ``PlayRound`` with every stage's output saved in a
/// folder, for ``ReplayRound``: `pages.ndjson`, `gifs.ndjson`,
/// `images.ndjson`, `events.ndjson`, `score.json`, and `play.options` (how
/// gif-play ran; a hold script is copied to `hold.ndjson` and named relative
/// to the folder, so the folder can move).
public struct RecordRound: Sendable, Equatable {
    /// The folder to save in (made when missing).
    public var folder: String
    /// The queries (none with a ladder).
    public var queries: [String] = []
    /// Play headless on a virtual clock, holding as this NDJSON file says.
    public var holdScript: String?
    /// The ladder whose rung to play.
    public var ladder: String?
    /// With a ladder: the rung; mastered rungs woven in.
    public var rung: Int?
    public var mix = false
    /// giphy or klipy; nil: the one whose key is set.
    public var provider: GIFProvider?
    /// GIFs to plan per query.
    public var maxResults = 50

    /// A recording into `folder`.
    public init(folder: String) { self.folder = folder }

    /// The files a recording is made of. A folder that holds only these, as
    /// regular files, `play.options` among them (record writes it before any
    /// stage runs), holds an earlier recording, which a new one replaces;
    /// anything else in it is the person's, and the folder is refused.
    public static let files = ["pages.ndjson", "gifs.ndjson", "images.ndjson", "events.ndjson", "score.json",
                               "play.options", "hold.ndjson"]

    /// Makes the folder ready: made when missing; when it holds an earlier
    /// recording, that is removed and said; when it holds anything else (a
    /// file of the person's, a link, a folder), refused with exit 64 and
    /// nothing touched.
    func prepareFolder(_ diagnostics: Diagnostics) throws(RoundFailure) {
        var info = stat()
        if stat(folder, &info) != 0 {
            do { try Folders.make(folder, mode: 0o777) } catch { throw RoundFailure(error.description) }
            return
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw RoundFailure("\(folder) is not a folder: record into a new or empty folder", status: 64)
        }
        guard let listing = opendir(folder) else {
            throw RoundFailure("cannot read \(folder): \(String(cString: strerror(errno)))")
        }
        var earlier: [String] = [], others: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name == "." || name == ".." { continue }
            var file = stat()
            let isFile = lstat(folder + "/" + name, &file) == 0 && (file.st_mode & S_IFMT) == S_IFREG
            if isFile && Self.files.contains(name) {
                earlier.append(name)
            } else {
                let kind = !isFile && (file.st_mode & S_IFMT) == S_IFLNK ? " (a link)" : ""
                others.append(RemoteText.visible(name) + kind)
            }
        }
        closedir(listing)
        if !earlier.isEmpty && !earlier.contains("play.options") {
            others += earlier
            earlier = []
        }
        guard others.isEmpty else {
            let shown = others.sorted().prefix(5).joined(separator: ", ") + (others.count > 5 ? ", …" : "")
            throw RoundFailure("\(folder) holds what is not a recording (\(shown)), and a recording never replaces "
                               + "it: record into a new or empty folder", status: 64)
        }
        guard !earlier.isEmpty else { return }
        for name in earlier where unlink(folder + "/" + name) != 0 && errno != ENOENT {
            throw RoundFailure("cannot replace \(folder)/\(name): \(String(cString: strerror(errno)))")
        }
        diagnostics.warning("\(folder) held an earlier recording: replaced")
    }

    /// Plays, saves and prints the score; the exit status. The score and where
    /// the recording is are said whether the round could be played or not.
    public func run(_ runner: RoundRunner) throws(RoundFailure) -> Int32 {
        try runner.needKey(provider)
        let pages = try runner.path("giphy-pages"), fetch = try runner.path("fetch-images")
        let play = try runner.path("gif-play"), score = try runner.path("score")
        // The hold script is read before the folder is made ready: it may be
        // the earlier recording's own hold.ndjson.
        var hold: [UInt8]?
        if let holdScript {
            guard access(holdScript, R_OK) == 0 else { throw RoundFailure("cannot read the hold script \(holdScript)") }
            do { hold = try readFile(holdScript, maxBytes: 64 << 20) } catch {
                throw RoundFailure("cannot copy the hold script: \(error)")
            }
        } else {
            guard RoundRunner.haveTerminal() else {
                throw RoundFailure("no terminal to hold on: give --hold-script FILE to record headless")
            }
        }
        try prepareFolder(runner.diagnostics)

        var playOptions: [String] = [], savedOptions: [String] = [], scoreOptions: [String] = []
        if let hold {
            do { try writeAtomically(hold, to: folder + "/hold.ndjson", as: .program) } catch {
                throw RoundFailure("cannot copy the hold script: \(error)")
            }
            playOptions = ["--renderer", "none", "--clock", "virtual", "--hold", "script:\(folder)/hold.ndjson"]
            // Named relative to the recording folder, which replay resolves
            // from any working directory.
            savedOptions = ["--renderer", "none", "--clock", "virtual", "--hold", "script:hold.ndjson"]
            // Nobody can read the ladder's safety notice headless: a script takes it as read.
            if ladder != nil {
                playOptions.append("--accept-notice")
                savedOptions.append("--accept-notice")
            }
            scoreOptions = ["--no-history"]
        }
        do {
            try writeAtomically(Array(savedOptions.map { $0 + "\n" }.joined().utf8), to: folder + "/play.options", as: .program)
        } catch {
            throw RoundFailure(error.description)
        }

        var plan = [pages, "plan"]
        if let provider { plan += ["--provider", provider.rawValue] }
        if let ladder { plan += ["--ladder", ladder] }
        if let rung { plan += ["--rung", String(rung)] }
        if mix { plan.append("--mix") }
        plan += ["--max-results", String(maxResults), "--quiet"]
        if !queries.isEmpty { plan += ["--"] + queries }
        let events = folder + "/events.ndjson"
        let commands = [
            StageCommand("giphy-pages plan", plan),
            .save("pages.ndjson", to: folder + "/pages.ndjson"),
            StageCommand("giphy-pages list", [pages, "list", "--quiet"]),
            .save("gifs.ndjson", to: folder + "/gifs.ndjson"),
            StageCommand("fetch-images", [fetch, "--quiet"]),
            .save("images.ndjson", to: folder + "/images.ndjson"),
            StageCommand("gif-play", [play] + playOptions),
            .save("events.ndjson", to: events),
            StageCommand("score", [score] + scoreOptions + ["--format", "json"]),
        ]
        let (judged, statuses) = try runner.run(commands, output: .file(folder + "/score.json"), events: events)
        if statuses.last == 0 {
            // The score for the person too, in their terminal's format.
            _ = try? StagePipeline.run([StageCommand("score", [score, "--no-history"])], input: .file(events),
                                       diagnostics: runner.diagnostics)
        }
        if judged.status == 0 {
            runner.diagnostics.warning("saved in \(folder) (replay: sposure replay \(Paths.shellQuoted(folder)))")
        } else {
            runner.diagnostics.warning("what was recorded is in \(folder)")
        }
        return judged.status
    }
}
