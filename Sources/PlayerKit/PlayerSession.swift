import FoundationEssentials
import Glibc
import GIFEngine
import SposureKit

//  gif-play, set up and torn down:
//
//  files ─▶ FileFeeder thread ─▶ [pipe] ─┐ (or stdin)
//                                        ▼
//  Stage reader ─▶ [input queue] ─▶ Preloader threads ─▶ [gif buffer] ─▶ Player (this thread)
//  signals ─▶ trap thread: SIGINT/SIGTERM/SIGHUP stop the stage (the gif buffer
//             closes, the terminal's read wakes, kitty's frame files go); JobControl:
//             SIGWINCH, SIGTSTP, SIGCONT ─▶ the player's flags, the terminal
//  Player events ─▶ [output queue] ─▶ Stage writer ─▶ stdout (and --events FILE)
//
//  The threads start only after the trap has blocked the signals.

/// One run of the player: opens the terminal, asks what it can do, picks
/// the renderer, wires the stage, the preloader and the player, plays the
/// round, gives the terminal back and says how the run ended.
public struct PlayerSession {
    /// How the round plays.
    public var configuration: PlayerConfiguration
    /// Where it plays, what it reads and writes.
    public var launch: PlayerLaunch

    /// A session playing by `configuration` as `launch` says.
    public init(configuration: PlayerConfiguration, launch: PlayerLaunch) {
        self.configuration = configuration
        self.launch = launch
    }

    /// Plays the round and returns the exit status: 0 when it ended
    /// (released, quit, end of input, time limit), 128 + the signal when
    /// interrupted or hung up, 2 when it could not start (no terminal, an
    /// unreadable hold or ratings script or events file, a ladder round's
    /// safety notice not accepted with no terminal to show it on).
    public func run() -> Int32 {
        var configuration = configuration
        let options = StageOptions(buffer: 16, strict: launch.strict, quiet: launch.quiet, verbose: launch.verbose)
        let diagnostics = Diagnostics(tool: "gif-play", quiet: launch.quiet)

        var script: [ScriptedHold] = []
        var scriptedKeys: [ScriptedKey] = []
        if case .script(let path) = configuration.hold {
            do { (script, scriptedKeys) = try ScriptedHold.loadScript(path: path) } catch {
                diagnostics.error("hold script: \(error)")
                return 2
            }
        }

        var ratingScript: RatingScript?
        if case .script(let path) = configuration.ratings {
            do { ratingScript = try RatingScript.load(path: path) } catch {
                diagnostics.error("ratings script: \(error)")
                return 2
            }
        }

        // Where events go: stdout, unless it is the terminal we draw on; and --events FILE.
        let outputFD: Int32 = isatty(1) == 1 ? open("/dev/null", O_WRONLY | O_CLOEXEC) : 1

        // Files on the command line become image records on a pipe of our own.
        var feeder: FileFeeder?
        if !launch.files.isEmpty {
            guard let made = FileFeeder(files: launch.files) else { return 2 }
            feeder = made
        }

        let headless = configuration.renderer == .none
        var terminal: Terminal?
        if !headless {
            do { terminal = try Terminal(path: launch.ttyPath) } catch {
                diagnostics.error("\(error) (no terminal? use --renderer none --clock virtual --hold always to play headless)")
                return 2
            }
        }
        if terminal?.canRead != true && !headless, configuration.hold.isByPerson {
            diagnostics.error("\(launch.ttyPath) is not a terminal, so nobody can hold: use --hold always or script:FILE")
            return 2
        }

        // Last of what can fail to start: a run that does not start leaves the
        // events file of the run before as it was.
        var eventsFD: Int32?
        if let events = launch.eventsPath {
            eventsFD = open(events, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard let fd = eventsFD, fd >= 0 else {
                diagnostics.error("cannot write \(events): \(String(cString: strerror(errno)))")
                return 2
            }
        }

        // One record read ahead of the decoder: the gif buffer (--buffer) is
        // the read-ahead, so the fetcher upstream stays a few GIFs ahead of
        // the screen, not a pipe and a queue ahead (issue 29 #10).
        let stage = Stage(name: "gif-play", options: options, inputBuffer: 1, inputFD: feeder?.inputFD ?? 0, outputFD: outputFD)
        stage.shrinksInputPipe = true
        stage.mirrorFD = eventsFD
        stage.parsedKinds = ["image"]
        let size = terminal?.size()
        let columns = launch.size?.columns ?? size?.cols ?? 80, rows = launch.size?.rows ?? size?.rows ?? 24

        // Ask the terminal what it can do, once: keyboard, graphics, its name and cell size.
        let mouse = configuration.hold == .mouse || configuration.hold == .auto
        var exactKeys = false
        let environment = ProcessInfo.processInfo.environment
        var answers = Capabilities()
        if let terminal, terminal.canRead {
            terminal.enter(mouse: mouse)
            answers = Capabilities.query(terminal, environment: environment)
            if answers.kittyKeyboard && (configuration.hold == .keys || configuration.hold == .auto) {
                terminal.pushKittyKeyboard()
                exactKeys = true
            }
        } else {
            terminal?.enter(mouse: false)
        }
        let choice = answers.choose(environment: environment)
        let chosen = configuration.renderer == .auto
        if chosen { configuration.renderer = choice.renderer }
        let symbols = configuration.symbols ?? Symbols.automatic(terminal: answers.name, environment: environment)
        let cells = configuration.renderer == .truecolor || configuration.renderer == .palette
            ? " with \(symbols.rawValue) cells\(configuration.symbols == nil ? " (for this terminal)" : "")" : ""
        stage.diagnostics.trace("renderer \(configuration.renderer.rawValue)\(cells): \(chosen ? choice.why : "--renderer \(configuration.renderer.rawValue)")"
            + (answers.name.map { "; the terminal says it is \($0)" } ?? "")
            + (answers.outerName.map { ", outside tmux \($0)" } ?? "")
            + (answers.answered && answers.waitedLongerMs > 0 ? "; it answered late, after \(Capabilities.firstWaitMs + answers.waitedLongerMs) ms" : ""))
        if chosen, let advice = choice.advice { stage.diagnostics.warning(advice) }
        let screen = Screen(terminal: terminal, renderer: configuration.renderer, symbols: symbols, columns: columns, rows: rows,
                            graphics: answers.graphics())
        if terminal?.isTTY == true {
            // A warning on stderr lands on the picture when stderr is this terminal too.
            let diagnostics = stage.diagnostics
            screen.otherWrites = { diagnostics.writesToTerminal }
        }
        // The cell as the terminal reports it (CSI 16 t, else CSI 14 t over
        // the cells), else the window's pixels over its cells.
        var cellPixels = answers.cellPixels
        if cellPixels == nil, let size, size.pixelWidth > 0 {
            cellPixels = CellSize(width: size.pixelWidth / columns, height: size.pixelHeight / rows)
        }
        let preloader = Preloader(stage: stage, configuration: configuration,
                                  layout: screen.layout(background: configuration.background, cellPixels: cellPixels))
        let player = Player(stage: stage, configuration: configuration, preloader: preloader, screen: screen,
                            terminal: terminal, script: script, keys: scriptedKeys, exactKeys: exactKeys,
                            ratingScript: ratingScript)

        stage.signals = JobControl.policy(player: player, terminal: terminal, mouse: mouse, kittyKeys: exactKeys)
        // A stop must reach the player wherever it waits: on the gif buffer
        // (a virtual clock waiting for the next GIF, while stdin stays open or
        // the decoder is busy), or on the terminal. It was left waiting there,
        // and only a second signal ended the stage, without its records.
        stage.onStop = { [preloader, terminal] in
            preloader.stop()
            terminal?.wake()
            // The round is over: no frame file is read now (a stalled terminal
            // may never read them, and a second signal or SIGKILL may follow).
            KittyFiles.shared.removeAll()
        }
        stage.start()
        feeder?.start()
        preloader.start()
        let reason = player.run()
        terminal?.leave(forGood: true)
        KittyFiles.shared.removeAll()
        // Warnings shown over the picture went with the alternate screen.
        stage.diagnostics.repeatCovered()
        if isatty(1) == 1 {
            // The events went nowhere (stdout is the terminal): a person trying
            // `gif-play a.gif` still sees what the round came to.
            stage.diagnostics.note(Self.summary(gifs: player.gifsShown, exposedMs: player.exposedMs))
        }
        if reason == .interrupted && stage.stopReason == nil {
            // The terminal hung up (no SIGHUP came: it is not ours), or Ctrl-C
            // as a key (kitty protocol): the same end as the signal.
            let hungUp = terminal?.hungUp == true
            if hungUp { stage.diagnostics.error("\(launch.ttyPath): the terminal hung up; the round ends") }
            stage.requestStop(.signal(hungUp ? SIGHUP : SIGINT))
        }
        return stage.drain(failed: false)
    }

    /// The line said after a round whose events had nowhere to go (stdout
    /// is the terminal): "2 GIFs, 12.4 s of exposure; pipe into `score` for
    /// the full report" (exposure in tenths, cut, as the status line cuts seconds).
    public static func summary(gifs: Int, exposedMs: Int) -> String {
        let seconds = exposedMs / 1000, tenths = exposedMs % 1000 / 100
        return "\(gifs) GIF\(gifs == 1 ? "" : "s"), \(seconds).\(tenths) s of exposure; pipe into `score` for the full report"
    }
}
