import FoundationEssentials
import Glibc
import GiphyKit
import SposureKit

/// The live game: `giphy-pages plan | giphy-pages list | fetch-images |
/// gif-play | score`, as `sposure play` (and `pipelines/play` and
/// `pipelines/carousel`, which call it) runs it.
public struct PlayRound: Sendable, Equatable {
    /// The queries, one section each (none with a ladder).
    public var queries: [String] = []
    /// The ladder whose rung to play (`--ladder`).
    public var ladder: String?
    /// With a ladder: the rung (`--rung`), else the rules choose.
    public var rung: Int?
    /// With a ladder: mastered rungs woven in (`--mix`).
    public var mix = false
    /// With a ladder: ask, off or script:FILE (`--ratings`).
    public var ratings: String?
    /// giphy or klipy; nil: the one whose key is set.
    public var provider: GIFProvider?
    /// GIFs to plan per query.
    public var maxResults = 200
    /// g, pg, pg-13 or r.
    public var rating = "g"
    /// end or pause.
    public var onRelease = "end"
    /// The most exposure (e.g. 2m).
    public var timeLimit: String?
    /// Distress before and after, "7,4".
    public var distress: String?
    /// Keep the round out of the history.
    public var noHistory = false
    /// The queries' pages interleaved, ten results a page, the score split by
    /// section: the carousel (`pipelines/carousel`).
    public var interleave = false
    /// How wide a picture the terminal can show, in pixels: Wikimedia
    /// Commons' thumbnails are asked at least this wide (`list --width`);
    /// nil: list's default. ``run(_:)`` reads it from the terminal.
    public var pictureWidth: Int?

    /// A round with every option at its default.
    public init() {}

    /// The five stages and the save of the events, in order.
    public func commands(_ runner: RoundRunner, events: String) throws(RoundFailure) -> [StageCommand] {
        let pages = try runner.path("giphy-pages"), fetch = try runner.path("fetch-images")
        let play = try runner.path("gif-play"), score = try runner.path("score")
        var plan = [pages, "plan"]
        if let provider { plan += ["--provider", provider.rawValue] }
        if let ladder { plan += ["--ladder", ladder] }
        if let rung { plan += ["--rung", String(rung)] }
        if mix { plan.append("--mix") }
        if interleave { plan += ["--interleave", "--limit", "10"] }
        plan += ["--max-results", String(maxResults), "--rating", rating, "--quiet"]
        if !queries.isEmpty { plan += ["--"] + queries }
        var player = [play, "--on-release", onRelease]
        if let timeLimit { player += ["--time-limit", timeLimit] }
        if let ratings { player += ["--ratings", ratings] }
        var lister = [pages, "list", "--rating", rating, "--quiet"]
        if let pictureWidth {
            lister += ["--width", String(min(max(pictureWidth, CommonsAPI.widths.lowerBound), CommonsAPI.widths.upperBound))]
        }
        var scorer = [score]
        if noHistory { scorer.append("--no-history") }
        if let distress { scorer += ["--distress", distress] }
        return [
            StageCommand("giphy-pages plan", plan),
            StageCommand("giphy-pages list", lister),
            StageCommand("fetch-images", [fetch, "--quiet"]),
            StageCommand("gif-play", player),
            .save("events", to: events),
            StageCommand("score", scorer),
        ]
    }

    /// Checks the key and the terminal, plays the round and judges it; the exit status.
    public func run(_ runner: RoundRunner) throws(RoundFailure) -> Int32 {
        try runner.needKey(provider)
        guard RoundRunner.haveTerminal() else {
            throw RoundFailure("the game needs a terminal to hold the button on (sposure demo plays headless)")
        }
        let work = try WorkFolder("play", environment: runner.environment)
        defer { work.remove() }
        let events = work.path + "/events.ndjson"
        var round = self
        if round.pictureWidth == nil { round.pictureWidth = RoundRunner.terminalPictureWidth() }
        return try runner.run(round.commands(runner, events: events), events: events).judged.status
    }
}
