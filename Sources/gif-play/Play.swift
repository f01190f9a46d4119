import ArgumentParser
import SposureCLI
import Foundation
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
            and Ctrl-Z (which stops the player until `fg`) let go too. q, Esc or Ctrl-C end it. \
            The next GIFs are decoded ahead (--buffer), so one starts the moment the last \
            ends; when none is ready while you hold, the status line says "loading…" and a \
            "stall" event records it.

            Events (stdout, NDJSON): session start/end, hold, shown, stall; records that are \
            not images (errors from upstream) pass through. When stdout is the terminal, \
            events are not printed there (--events FILE writes them). See docs/stream-format.md.

            Headless and replayable: --renderer none --clock virtual --hold always \
            (or script:FILE, NDJSON {"t_ms":…,"down":true|false}) plays at full speed with \
            identical events every run. With a virtual clock an image record's "at_ms" is \
            when it arrives, so stalls replay too.

            Exit status: 0 the round ended (released, quit, end of input, time limit); \
            2 a fatal error (no terminal, unreadable hold script); 64 usage; 130/143 \
            interrupted (SIGINT or Ctrl-C, SIGTERM); 129 the terminal hung up.
            """)

    @Argument(help: ArgumentHelp("GIF files to play instead of reading image records.", valueName: "file"))
    var files: [String] = []

    @Option(help: ArgumentHelp("auto (truecolor when COLORTERM says so, else 256; sixel or kitty when the terminal answers for them), truecolor, 256, sixel, kitty, none.", valueName: "name"))
    var renderer = "auto"

    @Option(help: ArgumentHelp("real, or virtual: no sleeping, time advances by the frame delays.", valueName: "clock"))
    var clock = "real"

    @Option(help: ArgumentHelp("mouse, keys, auto (mouse and keys), always, or script:FILE.", valueName: "source"))
    var hold = "auto"

    @Option(help: ArgumentHelp("end (the round ends) or pause (blank until the next hold).", valueName: "action"))
    var onRelease = "end"

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
    var size: ScreenSize?

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

    @Flag(help: "Stop at the first line that is not a JSON object (exit 2).")
    var strict = false

    @Flag(help: "No warnings on stderr.")
    var quiet = false

    mutating func validate() throws {
        guard PlayerConfiguration.Renderer(rawValue: renderer) != nil else {
            throw ValidationError("--renderer must be auto, truecolor, 256, sixel, kitty or none.")
        }
        guard clock == "real" || clock == "virtual" else { throw ValidationError("--clock must be real or virtual.") }
        guard HoldSource(argument: hold) != nil else { throw ValidationError("--hold must be mouse, keys, auto, always or script:FILE.") }
        guard PlayerConfiguration.OnRelease(rawValue: onRelease) != nil else { throw ValidationError("--on-release must be end or pause.") }
        guard loops >= 1 else { throw ValidationError("--loops must be at least 1.") }
        guard (1...64).contains(buffer) else { throw ValidationError("--buffer must be from 1 to 64.") }
        guard RGBColor(hex: background) != nil else { throw ValidationError("--background must be RRGGBB hex.") }
        for file in files where access(file, R_OK) != 0 {
            throw ValidationError("cannot read \(file): \(String(cString: strerror(errno)))")
        }
        if files.isEmpty && isatty(0) == 1 {
            throw ValidationError("gif-play plays image records from stdin (… | fetch-images | gif-play) or the GIF files named as arguments (gif-play a.gif).")
        }
        if clock == "virtual", ["mouse", "keys", "auto"].contains(hold) {
            throw ValidationError("--clock virtual needs --hold always or --hold script:FILE (nobody holds a button in virtual time).")
        }
    }

    func run() throws {
        var configuration = PlayerConfiguration()
        configuration.renderer = PlayerConfiguration.Renderer(rawValue: renderer) ?? .auto
        configuration.virtualClock = clock == "virtual"
        configuration.hold = HoldSource(argument: hold) ?? .auto
        configuration.onRelease = PlayerConfiguration.OnRelease(rawValue: onRelease) ?? .end
        configuration.loops = loops
        configuration.minMs = minSeconds.milliseconds
        configuration.timeLimitMs = timeLimit?.milliseconds
        configuration.buffer = buffer
        configuration.startAt = startAt
        configuration.background = RGBColor(hex: background) ?? .black
        configuration.thresholds.firstRepeatMs = repeatStart.milliseconds
        configuration.thresholds.gapFactor = repeatGap
        configuration.thresholds.minimumGapMs = repeatGapMin.milliseconds

        let options = StageOptions(buffer: 16, strict: strict, quiet: quiet)
        let diagnostics = Diagnostics(tool: "gif-play", quiet: quiet)

        var script: [ScriptedHold] = []
        if case .script(let path) = configuration.hold {
            do { script = try ScriptedHold.load(path: path) } catch {
                diagnostics.error("hold script: \(error)")
                throw ExitCode(2)
            }
        }

        // Where events go: stdout, unless it is the terminal we draw on; and --events FILE.
        let outputFD: Int32 = isatty(1) == 1 ? open("/dev/null", O_WRONLY | O_CLOEXEC) : 1
        var eventsFD: Int32?
        if let events {
            eventsFD = open(events, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard let fd = eventsFD, fd >= 0 else {
                diagnostics.error("cannot write \(events): \(String(cString: strerror(errno)))")
                throw ExitCode(2)
            }
        }

        // Files on the command line become image records on a pipe of our own,
        // fed by a thread started once the signals are blocked (see below).
        var inputFD: Int32 = 0
        var feedFiles: (() -> Void)?
        if !files.isEmpty {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw ExitCode(2) }
            inputFD = fds[0]
            let lines = files.map { file -> String in
                let path = file.hasPrefix("/") ? file : FileManager.default.currentDirectoryPath + "/" + file
                let record = JSONRecord()
                record.set("kind", "image")
                record.set("id", (file as NSString).lastPathComponent)
                record.set("path", path)
                record.set("section", "files")
                return record.text + "\n"
            }
            let writeEnd = fds[1]
            feedFiles = {
                Thread {
                    for line in lines {
                        var line = line
                        line.withUTF8 { _ = write(writeEnd, $0.baseAddress, $0.count) }
                    }
                    close(writeEnd)
                }.start()
            }
        }

        let headless = configuration.renderer == .none
        var terminal: Terminal?
        if !headless {
            do { terminal = try Terminal(path: tty) } catch {
                diagnostics.error("\(error) (no terminal? use --renderer none --clock virtual --hold always to play headless)")
                throw ExitCode(2)
            }
        }
        if terminal?.canRead != true && !headless, ["mouse", "keys", "auto"].contains(hold) {
            diagnostics.error("\(tty) is not a terminal, so nobody can hold: use --hold always or script:FILE")
            throw ExitCode(2)
        }

        let stage = Stage(name: "gif-play", options: options, inputFD: inputFD, outputFD: outputFD)
        stage.mirrorFD = eventsFD
        stage.parsedKinds = ["image"]
        let size = terminal?.size()
        let columns = self.size?.columns ?? size?.cols ?? 80, rows = self.size?.rows ?? size?.rows ?? 24

        // Ask the terminal what it can do (kitty keyboard, sixel, kitty graphics).
        var exactKeys = false
        if let terminal, terminal.canRead {
            terminal.enter(mouse: configuration.hold == .mouse || configuration.hold == .auto)
            let answers = Capabilities.query(terminal)
            if answers.kittyKeyboard && (configuration.hold == .keys || configuration.hold == .auto) {
                terminal.pushKittyKeyboard()
                exactKeys = true
            }
            if configuration.renderer == .auto {
                configuration.renderer = answers.kittyGraphics ? .kitty : answers.sixel ? .sixel
                    : Capabilities.truecolor(ProcessInfo.processInfo.environment) ? .truecolor : .palette
            }
        } else {
            terminal?.enter(mouse: false)
            if configuration.renderer == .auto {
                configuration.renderer = Capabilities.truecolor(ProcessInfo.processInfo.environment) ? .truecolor : .palette
            }
        }
        let screen = Screen(terminal: terminal, renderer: configuration.renderer, columns: columns, rows: rows)
        if terminal?.isTTY == true {
            // A warning on stderr lands on the picture when stderr is this terminal too.
            let diagnostics = stage.diagnostics
            screen.otherWrites = { diagnostics.writesToTerminal }
        }
        let cellPixels = (size?.pixelWidth ?? 0) > 0 ? CellSize(width: size!.pixelWidth / columns, height: size!.pixelHeight / rows) : nil
        let preloader = Preloader(stage: stage, configuration: configuration,
                                  layout: screen.layout(background: configuration.background, cellPixels: cellPixels))
        let player = Player(stage: stage, configuration: configuration, preloader: preloader, screen: screen,
                            terminal: terminal, script: script, exactKeys: exactKeys)

        let screenTerminal = terminal
        let mouse = configuration.hold == .mouse || configuration.hold == .auto
        let kittyKeys = exactKeys
        // A second Ctrl-C exits at once, but with the terminal given back first.
        SignalTrap.install(extra: [SIGWINCH, SIGTSTP, SIGCONT], beforeForcedExit: { screenTerminal?.leave(forGood: true) }) { signal in
            switch signal {
            case SIGWINCH:
                player.noteResize()
            case SIGTSTP:
                // Ctrl-Z: the hold ends now; give the terminal back as it was,
                // then stop; `fg` sets it up again.
                player.noteSuspend()
                screenTerminal?.leave()
                kill(getpid(), SIGSTOP)
            case SIGCONT:
                screenTerminal?.enter(mouse: mouse)
                if kittyKeys { screenTerminal?.pushKittyKeyboard() }
                player.noteContinue()
            default:
                stage.requestStop(.signal(signal))
            }
        }
        stage.start(trapSignals: false)
        feedFiles?()
        preloader.start()
        let reason = player.run()
        terminal?.leave(forGood: true)
        // Warnings shown over the picture went with the alternate screen.
        stage.diagnostics.repeatCovered()
        if reason == .interrupted && stage.stopReason == nil {
            // The terminal hung up (no SIGHUP came: it is not ours), or Ctrl-C
            // as a key (kitty protocol): the same end as the signal.
            let hungUp = terminal?.hungUp == true
            if hungUp { stage.diagnostics.error("\(tty): the terminal hung up; the round ends") }
            stage.requestStop(.signal(hungUp ? SIGHUP : SIGINT))
        }
        stage.finish(failed: false)
    }
}

/// What the terminal says it can do.
enum Capabilities {
    struct Answers {
        var kittyKeyboard = false
        var kittyGraphics = false
        var sixel = false
    }

    /// Sends the queries and reads the replies until the device attributes
    /// (which every terminal answers) arrive, or 300 ms pass.
    static func query(_ terminal: Terminal) -> Answers {
        terminal.write("\u{1B}[?u\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[c")
        var parser = InputParser()
        var answers = Answers()
        let deadline = monotonicSeconds() + 0.3
        while monotonicSeconds() < deadline {
            let bytes = terminal.read(timeoutMs: 50)
            for event in parser.feed(bytes) {
                switch event {
                case .kittyKeyboard: answers.kittyKeyboard = true
                case .kittyGraphics(let ok): answers.kittyGraphics = ok
                case .deviceAttributes(let attributes):
                    answers.sixel = attributes.dropFirst().contains(4)
                    return answers
                default: break
                }
            }
        }
        return answers
    }

    /// Whether COLORTERM promises 24-bit colour.
    static func truecolor(_ environment: [String: String]) -> Bool {
        let value = environment["COLORTERM"]?.lowercased() ?? ""
        return value == "truecolor" || value == "24bit"
    }
}

/// `COLSxROWS`, for `--size`.
struct ScreenSize: ExpressibleByArgument {
    var columns: Int
    var rows: Int

    init?(argument: String) {
        let parts = argument.lowercased().split(separator: "x")
        guard parts.count == 2, let columns = Int(parts[0]), let rows = Int(parts[1]),
              (2...1000).contains(columns), (2...1000).contains(rows) else { return nil }
        self.columns = columns
        self.rows = rows
    }
}
