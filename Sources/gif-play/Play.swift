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
        discussion: Self.discussion)

    @Argument(help: ArgumentHelp("Picture files (GIF, JPEG, PNG, WebP) to play instead of reading image records.", valueName: "file"))
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

    @Option(help: ArgumentHelp("on, off, or auto (on for a ladder rung that asks: its records say \"approach\": true): a still (a picture of one frame, or a \"still\" record's first frame) comes slowly closer while shown, 1.0x to 1.5x toward its middle in 12 steps over 5 s.", valueName: "mode"))
    var approach = ApproachMode.auto

    @Option(help: ArgumentHelp("Times each GIF plays through.", valueName: "n"))
    var loops = 1

    @Option(help: ArgumentHelp("A shorter GIF repeats until it has played this long.", valueName: "time"))
    var minSeconds = TimeSpan(seconds: 0)

    @Option(help: ArgumentHelp("How long a still shows: a JPEG, a PNG, a WebP or GIF of one frame, or a record with \"still\": true (its first frame, once; --loops and --min-seconds do not apply). From 0.5s to 10m.", valueName: "time"))
    var stillTime = TimeSpan(seconds: 5)

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
        guard (500...600_000).contains(stillTime.milliseconds) else {
            throw ValidationError("--still-time must be from 0.5s to 10m (a still shows that long), not \(stillTime).")
        }
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
        configuration.stillMs = stillTime.milliseconds
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
        configuration.approach = approach

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
