import ArgumentParser
import FrontDoorKit

/// `sposure replay`: a recording again, from any stage.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a folder that `sposure record` wrote, from one stage on, and print the score.",
        discussion: """
            --from score   score the saved events
            --from play    play the saved image records again (default; no network: the
                           GIFs come from the cache)
            --from fetch   fetch the saved gif records again (from the cache when they
                           are there; the network only for what is missing)
            --from list    run the saved page requests again (needs the key of the API
                           they name; answers still in the API cache cost no call)

            A recording made with --hold-script replays on the same virtual clock and \
            script, so its score is identical: sposure replay DIR | diff - DIR/score.json. \
            Replays never touch the history.

            A recording may come from anyone: only the options record writes are taken \
            from DIR/play.options (--renderer none, --clock virtual, --hold script:FILE, \
            --accept-notice), and the hold script and the saved streams only from inside \
            DIR; anything else is refused before anything runs.

            Exit status: 0 the round was replayed and scored; 1 it could not be, or a \
            file of the recording is missing (one line says which); 130/143/129 \
            interrupted; 64 usage, or a recording that asks for more than record writes.
            """)

    @Argument(help: ArgumentHelp("The recording's folder.", valueName: "dir"))
    var folder: String?

    @Option(help: ArgumentHelp("The stage to start from: score, play, fetch or list.", valueName: "stage"))
    var from = ReplayRound.From.play

    mutating func validate() throws {
        guard folder != nil else { throw ValidationError("give the folder of a recording, e.g. sposure replay runs/today") }
    }

    func run() throws {
        let folder = self.folder ?? "."
        try runRound("replay") { runner throws(RoundFailure) in
            try ReplayRound(folder: folder, from: from).run(runner)
        }
    }
}

extension ReplayRound.From: ExpressibleByArgument {}
