import ArgumentParser
import FrontDoorKit
import GiphyKit
import SposureCLI

/// `sposure record`: a round with every stage's output saved.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Play a round and save every stage's output in a folder, for replay.",
        usage: """
            sposure record [options] DIR QUERY...
            sposure record [options] --ladder NAME DIR
            """,
        discussion: """
            Plays a round like `sposure play` and saves each stage's output in DIR:

              DIR/pages.ndjson    giphy-pages plan
              DIR/gifs.ndjson     giphy-pages list
              DIR/images.ndjson   fetch-images (the GIFs stay in the cache)
              DIR/events.ndjson   gif-play
              DIR/score.json      score
              DIR/play.options    how gif-play ran (a hold script is named relative to
                                  DIR, so the folder can move)

            DIR must be new, empty, or an earlier recording (which is replaced, and said): \
            a folder holding anything else is refused and left as it is. Every file is \
            made new, never written through a link.

            With --hold-script the round is played headless on a virtual clock, replays \
            to the identical score, and is kept out of the history; with --ladder the \
            safety notice is then taken as read. Needs GIPHY_API_KEY or KLIPY_API_KEY. \
            Replay with: sposure replay DIR [--from STAGE] (no key needed, except --from list).

            Exit status: 0 the round was played and scored (GIFs that could not be \
            fetched count as errors in the score); 1 it could not be (one line says which \
            stage and why); 130/143/129 interrupted; 64 usage, or DIR holds what is not a \
            recording. The score and where the \
            recording is are printed either way.
            """)

    @Argument(help: ArgumentHelp("The folder to save in, then the queries.", valueName: "dir-and-queries"))
    var arguments: [String] = []

    @Option(help: ArgumentHelp("Play headless on a virtual clock, holding as FILE says (NDJSON {\"t_ms\":…,\"down\":true|false}).", valueName: "file"))
    var holdScript: String?

    // --rung and --mix go with --ladder here: a recording names its ladder.
    @OptionGroup var choice: LadderChoice

    @OptionGroup var provider: ProviderOption

    @Option(help: ArgumentHelp("GIFs to plan per query.", valueName: "n"))
    var maxResults = 50

    mutating func validate() throws {
        if choice.ladder != nil {
            guard arguments.count == 1 else {
                throw ValidationError("with --ladder give only the folder, e.g. sposure record --ladder spiders runs/today")
            }
        } else {
            guard arguments.count >= 2 else { throw ValidationError("give a folder and a query, e.g. sposure record runs/today spiders") }
            if choice.rung != nil || choice.mix { throw ValidationError("--rung and --mix go with --ladder NAME, not queries") }
        }
        guard maxResults > 0 else { throw ValidationError("--max-results must be at least 1") }
    }

    func run() throws {
        var round = RecordRound(folder: arguments[0])
        round.queries = Array(arguments.dropFirst())
        round.holdScript = holdScript
        (round.ladder, round.rung, round.mix) = (choice.ladder, choice.rung, choice.mix)
        round.provider = provider.named
        round.maxResults = maxResults
        try runRound("record") { runner throws(RoundFailure) in try round.run(runner) }
    }
}
