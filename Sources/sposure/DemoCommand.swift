import ArgumentParser
import FrontDoorKit

/// `sposure demo`: the offline demo.
struct DemoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play the offline demo: sample GIFs drawn by code, no key, no network.",
        discussion: """
            `gif-play samples` draws a few spider GIFs with giflib and writes a saved \
            stream of "gif" records (file:// URLs), which goes through \
            `fetch-images --allow-file | gif-play | score`. It needs only the installed \
            tools.

            On a terminal it waits for you: hold the mouse button or SPACE to watch, let \
            go to end the round, and the score follows. Without a terminal (or with \
            --headless) it holds by script on a virtual clock, at full speed (1 s to \
            10 s), and prints the score; the same run gives the same score every time. \
            The demo does not touch your history.

            Exit status: 0 played; 1 it could not be (one line says why); 130/143 interrupted.
            """)

    @Flag(help: "Play by script even on a terminal.")
    var headless = false

    @Flag(help: "Keep the work folder (its path is printed at the end).")
    var keep = false

    func run() throws {
        try runRound("demo") { runner throws(RoundFailure) in
            try DemoRound(headless: headless, keep: keep).run(runner)
        }
    }
}
