import FoundationEssentials
import Glibc
import GiphyKit
import SposureKit

/// What every round command shares: the tools, the messages, the checks
/// before a live round (a key, a terminal) and running and judging the
/// pipeline.
public struct RoundRunner: Sendable {
    /// Where the stages are.
    public var tools: ToolFinder
    /// Where messages go (`sposure play: …`).
    public var diagnostics: Diagnostics
    /// The environment the keys are read from.
    public var environment: [String: String]

    /// A runner for the command `tool` (`sposure play`).
    public init(tool: String, tools: ToolFinder = ToolFinder(),
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.tools = tools
        self.environment = environment
        diagnostics = Diagnostics(tool: tool, environment: environment)
    }

    /// The path of the stage `tool`.
    public func path(_ tool: String) throws(RoundFailure) -> String {
        do { return try tools.path(of: tool) } catch { throw RoundFailure(error.description) }
    }

    /// Fails unless the key of `provider` (nil: of any API) is set.
    public func needKey(_ provider: GIFProvider?) throws(RoundFailure) {
        if let provider {
            guard provider.key(in: environment) == nil else { return }
        } else if GIFProvider.chosen(environment: environment) != nil {
            return
        }
        throw RoundFailure(Self.noKeyMessage)
    }

    /// What to say when no key is set: each key and where to get it, and the demo.
    public static var noKeyMessage: String {
        let providers = GIFProvider.keyed
        let names = providers.map(\.keyVariable)
        let unset = names.first.map { first in ([first + " is not set"] + names.dropFirst().map { "nor " + $0 }).joined(separator: ", ") } ?? "no key is set"
        let gets = providers.map { "a \($0.displayName) key (\($0.keyHelp)): export \($0.keyVariable)=your-key" }
        return "\(unset). Get \(gets.joined(separator: "; or ")). sposure demo plays offline without one"
    }

    /// True when a person is at a terminal to hold the button on: stdout or
    /// stderr is one, and `/dev/tty` opens.
    public static func haveTerminal() -> Bool {
        guard isatty(1) == 1 || isatty(2) == 1 else { return false }
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    /// How wide a picture the terminal at `/dev/tty` can show, in pixels:
    /// its window's width where it says (kitty, xterm, most terminals that
    /// draw pixels), else two a column (what half blocks and sextants draw
    /// across a cell); nil without a terminal.
    public static func terminalPictureWidth() -> Int? {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var size = winsize()
        guard ioctl(fd, UInt(TIOCGWINSZ), &size) == 0 else { return nil }
        return pictureWidth(columns: Int(size.ws_col), pixels: Int(size.ws_xpixel))
    }

    /// The picture width of a window `columns` cells and `pixels` pixels
    /// wide (0: it does not say); nil when it says no columns either.
    public static func pictureWidth(columns: Int, pixels: Int) -> Int? {
        pixels > 0 ? pixels : columns > 0 ? columns * 2 : nil
    }

    /// Runs `commands` and judges the round by their statuses and the events
    /// at `events`; says the verdict's lines. Returns the verdict and each
    /// program's status.
    @discardableResult
    public func run(_ commands: [StageCommand], input: StagePipeline.Input = .inherit, output: StagePipeline.Output = .inherit,
                    events: String) throws(RoundFailure) -> (judged: RoundJudge, statuses: [Int32]) {
        let statuses: [Int32]
        do {
            statuses = try StagePipeline.run(commands, input: input, output: output, diagnostics: diagnostics)
        } catch {
            throw RoundFailure(error.description)
        }
        let judged = RoundJudge(Array(zip(commands.map(\.name), statuses)),
                                eventsShowedAGIF: RoundJudge.showedAGIF(eventsAt: events))
        // A played round's notes (some GIFs not fetched) are warnings; a round
        // that could not be played is an error.
        for line in judged.lines {
            if judged.status == 0 { diagnostics.warning(line) } else { diagnostics.error(line) }
        }
        return (judged, statuses)
    }
}
