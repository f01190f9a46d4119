import ArgumentParser
import SposureCLI

/// `gif-play`: the frame player, the fourth stage of the game, and the GIF
/// engine's tools (`frames`, `samples`).
@main
struct GIFPlay: SposureTool {
    static let configuration = CommandConfiguration.tool("gif-play",
        abstract: "The frame player: GIFs play while you hold; events come out.",
        discussion: """
            With no subcommand, gif-play plays (every option: `gif-play play --help`): \
            image records on stdin, or GIF files named as arguments.

              gif-play spider.gif                      try one file
              … | fetch-images | gif-play | score      the game
              gif-play --renderer none --clock virtual --hold always < images.ndjson

            Hold the mouse button or SPACE to watch; letting go ends the round. q, Esc \
            or Ctrl-C end it too; Ctrl-Z stops it until `fg`, and the round goes on at your \
            next hold.

            `gif-play frames FILE` decodes a GIF as the player does and writes each \
            composited frame, for scripts and conformance checks. `gif-play samples \
            --out DIR` draws the offline demo's GIFs.
            """,
        subcommands: [Play.self, Frames.self, Samples.self, Probe.self],
        defaultSubcommand: Play.self)
}
