import ArgumentParser
import SposureCLI
import FoundationEssentials
import Glibc
import GIFEngine
import PlayerKit
import SposureKit

/// `gif-play` (the default subcommand): the frame player with the hold-to-play exposure timer.
struct Play: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "play",
        abstract: "Play GIFs while you hold the mouse button or SPACE; write what happened as events.",
        discussion: """
            Reads "image" records on stdin (from fetch-images, or a saved stream), or plays \
            the files named as arguments. The screen and keyboard are /dev/tty, so stdin \
            stays the image stream and stdout the event stream for `score`:

              … | fetch-images | gif-play | score
              gif-play spider.gif              (one file, to try it)

            Hold the left mouse button or SPACE: GIFs play one after another, each its \
            full length, while an exposure timer runs. Letting go ends the round \
            (--on-release end) or pauses it (--on-release pause); the window losing focus \
            lets go too. Ctrl-Z stops the player until `fg` without ending the round: the \
            hold ends there (the time stopped is not exposure), and after `fg` the round goes \
            on where it was once you hold again. q, Esc or Ctrl-C end it. \
            The next GIFs are decoded ahead (--buffer), so one starts the moment the last \
            ends; when none is ready while you hold, the status line says "loading…" and a \
            "stall" event records it. While a GIF from an API is on screen, the status line \
            credits it as its provider asks: "Powered by GIPHY" or "Powered by KLIPY" (from the \
            record's provider, else its cache_key), then "· by NAME" when the record carries a \
            "creator" (cleaned of escapes, at most 40 characters).

            x marks the GIF on screen off-topic: it ends at once and the next plays (an \
            off_topic event; score keeps the mark, with the clip's hash). A GIF that is the \
            same clip as one already shown this round, or as one marked off-topic (the data \
            folder's ratings.ndjson), under another id (re-encoded, resized, cropped: \
            perceptual hashes of its first frames with detail, made while decoding) is passed \
            over before it is shown (a skipped event). GIFs shown in the last --seen-rounds rounds of the rung or \
            query (the data folder's seen.ndjson, which score keeps) play after new ones.

            Events (stdout, NDJSON): session start/end, hold, shown, stall, skipped, \
            off_topic; records that are not images (errors from upstream) pass through. When stdout is the terminal, \
            events are not printed there (--events FILE writes them): a line on stderr says \
            what the round came to (GIFs, exposure). See docs/stream-format.md.

            The picture: kitty graphics, the iTerm2 protocol or sixel wherever the terminal \
            answers for them (kitty inside tmux 3.3+ with allow-passthrough on), else \
            colour cells; one probe at start-up chooses. `gif-play --verbose spider.gif` \
            says what was chosen and why; docs/terminals.md has the table.

            Headless and replayable: --renderer none --clock virtual --hold always \
            (or script:FILE, NDJSON {"t_ms":…,"down":true|false}, and {"t_ms":…,"key":"x"} \
            for the x key) plays at full speed with \
            identical events every run. With a virtual clock an image record's "at_ms" is \
            when it arrives, so stalls replay too.

            Ladder rounds (the image records carry "ladder", from giphy-pages plan --ladder): \
            the first shows a safety notice and waits for a key (accepted once, kept in the \
            data folder; --accept-notice for scripts). Before the first hold it asks distress \
            now (0-9, t for 10) and how likely the feared outcome is (0-9 for 0-90 %, t for \
            100 %); after the round the peak distress, distress now and whether it happened \
            (y/n). One key or one click on a cell each; Esc skips one; --ratings off skips \
            all; --ratings script:FILE answers from a file. During play a digit rates the GIF \
            on screen (0 calm … 9 worst) without ending the hold. A record with "still": true \
            shows its first frame for the GIF's whole time (3 s for a GIF of one frame). \
            Letting go always blanks the picture at once. See docs/ladders.md.

            Exit status: 0 the round ended (released, quit, end of input, time limit); \
            2 a fatal error (no terminal, unreadable hold or ratings script, a ladder \
            round's notice not accepted with no terminal); 64 usage; 130/143 \
            interrupted (SIGINT or Ctrl-C, SIGTERM); 129 the terminal hung up.
            """)

    @Argument(help: ArgumentHelp("GIF files to play instead of reading image records.", valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("auto (what the terminal answers at start-up: kitty graphics, else iterm for iTerm2/WezTerm/mintty/VS Code, else sixel, else truecolor cells when COLORTERM says so, else 256), kitty, iterm, sixel, truecolor, 256, none. --verbose says what was chosen and why.", valueName: "name"))
    var renderer = PlayerConfiguration.Renderer.auto

    @Option(help: ArgumentHelp("""
        The characters cells are drawn with (truecolor and 256): half (▀, 1×2 pixels a cell), quad \
        (quadrants, 2×2), sextant (2×3, Unicode 13), octant (2×4, Unicode 16). Finer sets show more \
        detail where the terminal draws them; where it does not they show as boxes or gaps. Default: \
        picked from the terminal's name (octants on kitty ≥ 0.47, Ghostty ≥ 1.2, WezTerm nightly; \
        sextants on older kitty, Ghostty, WezTerm and foot; quadrants elsewhere and inside tmux). \
        See docs/terminals.md.
        """, valueName: "set"))
    var symbols: Symbols?

    @Option(help: ArgumentHelp("real, or virtual: no sleeping, time advances by the frame delays.", valueName: "clock"))
    var clock = Clock.real

    @Option(help: ArgumentHelp("mouse, keys, auto (mouse and keys), always, or script:FILE.", valueName: "source"))
    var hold = HoldSource.auto

    @Option(help: ArgumentHelp("end (the round ends) or pause (blank until the next hold).", valueName: "action"))
    var onRelease = PlayerConfiguration.OnRelease.end

    @Option(help: ArgumentHelp("Times each GIF plays through.", valueName: "n"))
    var loops = 1

    @Option(help: ArgumentHelp("A shorter GIF repeats until it has played this long.", valueName: "time"))
    var minSeconds = TimeSpan(seconds: 0)

    @Option(help: ArgumentHelp("End the round after this much exposure (e.g. 2m).", valueName: "time"))
    var timeLimit: TimeSpan?

    @Option(help: ArgumentHelp("GIFs kept ready ahead: decoded and scaled for their first 0.3 s, the rest while they play.", valueName: "n"))
    var buffer = 2

    @Option(help: ArgumentHelp("Draw here instead of /dev/tty (a file or a pty: tests, benchmarks).", valueName: "path"))
    var tty = "/dev/tty"

    @Option(help: ArgumentHelp("Also write the events to FILE (the only place they go when stdout is the terminal).", valueName: "file"))
    var events: String?

    @Option(help: ArgumentHelp("The screen size in cells when --tty is a file (default 80x24), or to override a terminal's.", valueName: "COLSxROWS"))
    var size: Dimensions?

    @Option(help: ArgumentHelp("The session's start time to write (ISO 8601): a virtual clock writes none without it, a real one writes this instead of the time now.", valueName: "time"))
    var startAt: String?

    @Option(help: ArgumentHelp("The colour transparent areas show, as RRGGBB.", valueName: "colour"))
    var background = "000000"

    @Option(help: ArgumentHelp("Without key releases: a press not repeated within this time is a tap.", valueName: "time"))
    var repeatStart = TimeSpan(seconds: 1)

    @Option(help: ArgumentHelp("Without key releases: the hold ends after a gap of this many repeat intervals…", valueName: "x"))
    var repeatGap = 2.5

    @Option(help: ArgumentHelp("…but never a gap shorter than this.", valueName: "time"))
    var repeatGapMin = TimeSpan(seconds: 0.1)

    @Option(help: ArgumentHelp("On a ladder round: ask (on the terminal), off, or script:FILE (NDJSON {\"when\":\"before\",\"suds\":7,\"expect_pct\":80}, {\"when\":\"after\",\"peak\":8,\"suds\":4,\"happened\":false}, {\"t_ms\":4200,\"rated\":8}).", valueName: "source"))
    var ratings = RatingSource.ask

    @Option(help: ArgumentHelp("Play GIFs not shown in the last N rounds of this rung (or query) first, as the data folder's seen.ndjson keeps them (score writes it); 0: input order. Default: 5 on a real clock, 0 on a virtual one.", valueName: "n"))
    var seenRounds: Int?

    @Flag(help: "Take the ladder safety notice as read for this run (scripts); it is not kept as accepted.")
    var acceptNotice = false

    @Flag(help: "Stop at the first line that is not a JSON object (exit 2).")
    var strict = false

    @Flag(help: "No warnings on stderr.")
    var quiet = false

    @Flag(help: "Say on stderr which renderer the terminal gets and why (gif-play --verbose spider.gif).")
    var verbose = false

    mutating func validate() throws {
        guard loops >= 1 else { throw ValidationError("--loops must be at least 1.") }
        guard (1...64).contains(buffer) else { throw ValidationError("--buffer must be from 1 to 64.") }
        if let seenRounds, !(0...100).contains(seenRounds) { throw ValidationError("--seen-rounds must be from 0 to 100.") }
        guard RGBColor(hex: background) != nil else { throw ValidationError("--background must be RRGGBB hex.") }
        if let size, !(2...1000).contains(size.width) || !(2...1000).contains(size.height) {
            throw ValidationError("--size must be from 2x2 to 1000x1000.")
        }
        for file in files where access(file, R_OK) != 0 {
            throw ValidationError("cannot read \(file): \(String(cString: strerror(errno)))")
        }
        if files.isEmpty && isatty(0) == 1 {
            throw ValidationError("gif-play plays image records from stdin (… | fetch-images | gif-play) or the GIF files named as arguments (gif-play a.gif).")
        }
        if clock == .virtual, hold.isByPerson {
            throw ValidationError("--clock virtual needs --hold always or --hold script:FILE (nobody holds a button in virtual time).")
        }
    }

    func run() throws {
        var configuration = PlayerConfiguration()
        configuration.renderer = renderer
        configuration.symbols = symbols
        configuration.virtualClock = clock == .virtual
        configuration.hold = hold
        configuration.onRelease = onRelease
        configuration.loops = loops
        configuration.minMs = minSeconds.milliseconds
        configuration.timeLimitMs = timeLimit?.milliseconds
        configuration.buffer = buffer
        configuration.startAt = startAt
        configuration.background = RGBColor(hex: background) ?? .black
        configuration.thresholds.firstRepeatMs = repeatStart.milliseconds
        configuration.thresholds.gapFactor = repeatGap
        configuration.thresholds.minimumGapMs = repeatGapMin.milliseconds
        configuration.ratings = ratings
        configuration.acceptNotice = acceptNotice
        configuration.seenRounds = seenRounds

        var launch = PlayerLaunch()
        launch.files = files
        launch.ttyPath = tty
        launch.eventsPath = events
        launch.size = size.map { ($0.width, $0.height) }
        launch.strict = strict
        launch.quiet = quiet
        launch.verbose = verbose
        throw ExitCode(PlayerSession(configuration: configuration, launch: launch).run())
    }
}
