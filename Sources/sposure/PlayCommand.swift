import ArgumentParser
import FrontDoorKit
import GiphyKit
import SposureCLI
import SposureKit

/// `sposure play`: the live game.
struct PlayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play a round: search, fetch, hold to watch, and the score.",
        discussion: """
            Runs the five stages over pipes, as one round:

              giphy-pages plan | giphy-pages list | fetch-images | gif-play | score

            With QUERY: a round on those GIFs (each query a section of the score). With \
            --ladder NAME: the ladder's current rung (a re-test first when one is due; \
            gif-play shows the safety notice once and asks your distress before and \
            after). With neither: the ladder you played last, else a short choice of a \
            fear from the built-in ladders, one key each.

            Hold the left mouse button or SPACE to watch; letting go ends the round \
            (--on-release pause: pauses it). q, Esc or Ctrl-C end it. Needs a terminal. \
            With no key it plays Wikimedia Commons' freely licensed photographs and drawings \
            (each credited: author and licence); GIPHY_API_KEY or KLIPY_API_KEY adds GIFs \
            (Giphy when both are set, unless --provider says otherwise). `sposure demo` plays \
            offline.

            Examples:
              sposure play
              sposure play spiders --on-release pause --distress 7,4
              sposure play --ladder spiders --rung 2
              sposure play spiders snakes --interleave     (a carousel, scored by section)

            Exit status: 0 the round was played and scored (GIFs that could not be \
            fetched count as errors in the score); 1 it could not be (one line says which \
            stage and why); 130/143/129 interrupted; 64 usage.
            """)

    @Argument(help: ArgumentHelp("What to search for; several are sections of one round.", valueName: "query"))
    var queries: [String] = []

    // Without --ladder, --rung and --mix are the ladder in progress's.
    @OptionGroup var choice: LadderChoice

    @Option(help: ArgumentHelp("With --ladder: ask (default), off, or script:FILE.", valueName: "source"))
    var ratings: String?

    @OptionGroup var provider: ProviderOption

    @Option(help: ArgumentHelp("GIFs to plan per query.", valueName: "n"))
    var maxResults = 200

    @Option(help: ArgumentHelp("g, pg, pg-13 or r.", valueName: "rating"))
    var rating = "g"

    @Option(help: ArgumentHelp("end (letting go ends the round) or pause.", valueName: "action"))
    var onRelease = "end"

    @Option(help: ArgumentHelp("End the round after this much exposure (e.g. 2m).", valueName: "time"))
    var timeLimit: String?

    @OptionGroup var roundHistory: RoundHistoryOptions

    @Flag(help: "Interleave the queries' pages, ten GIFs a page, and score by section (pipelines/carousel).")
    var interleave = false

    mutating func validate() throws {
        if interleave && queries.count < 2 {
            throw ValidationError("give two queries or more to interleave, e.g. sposure play --interleave spiders snakes (pipelines/carousel spiders snakes)")
        }
        if !queries.isEmpty && choice.ladder != nil { throw ValidationError("give queries or --ladder, not both") }
        if !queries.isEmpty && (choice.rung != nil || choice.mix) {
            throw ValidationError("--rung and --mix go with a ladder (--ladder NAME, or none: the ladder in progress), not queries")
        }
        guard ["end", "pause"].contains(onRelease) else { throw ValidationError("--on-release must be end or pause") }
        guard maxResults > 0 else { throw ValidationError("--max-results must be at least 1") }
    }

    func run() throws {
        var round = PlayRound()
        round.queries = queries
        (round.ladder, round.rung, round.mix) = (choice.ladder, choice.rung, choice.mix)
        round.ratings = ratings
        round.provider = provider.named
        round.maxResults = maxResults
        round.rating = rating
        round.onRelease = onRelease
        round.timeLimit = timeLimit
        round.distress = roundHistory.distress
        round.noHistory = roundHistory.noHistory
        round.interleave = interleave
        try runRound("play") { runner throws(RoundFailure) in
            if round.queries.isEmpty && round.ladder == nil {
                try runner.needKey(round.provider)
                if let ladder = Standing().ladderInProgress {
                    runner.diagnostics.note("the ladder in progress: \(ladder)")
                    round.ladder = ladder
                } else {
                    guard RoundRunner.haveTerminal() else {
                        throw RoundFailure("give a query or --ladder NAME (no terminal to choose a fear on)", status: 64)
                    }
                    var menu = FearMenu()
                    if let source = round.provider ?? GIFProvider.chosen(), !source.api.needsKey {
                        menu.source = "No key is set, none is needed: the pictures are \(source.displayName)'s freely licensed photographs and drawings, each credited. A Giphy or Klipy key adds GIFs (sposure doctor)."
                    }
                    guard let chosen = menu.ask() else { return 0 }
                    round.ladder = chosen
                }
            }
            return try round.run(runner)
        }
    }
}
