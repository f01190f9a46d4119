import ArgumentParser
import SposureKit

/// The stream options every stage's command line takes (`@OptionGroup`):
/// buffers, strictness, noise.
public struct StreamOptions: ParsableArguments, Sendable {
    /// The capacity of each queue.
    @Option(name: .long, help: ArgumentHelp(
        "How many records each queue holds (input and output).",
        discussion: "A full queue blocks its producer: a slow reader downstream slows this stage instead of growing its memory.",
        valueName: "n"))
    public var buffer: Int = 256

    /// Bad lines are fatal.
    @Flag(name: .long, help: "Stop at the first line that is not a JSON object (exit 2) instead of writing a bad_json error record and going on.")
    public var strict = false

    /// No warnings or progress.
    @Flag(name: .long, help: "No progress line and no per-record warnings on stderr (errors that stop the run still print).")
    public var quiet = false

    /// The longest accepted line.
    @Option(name: .long, help: ArgumentHelp("The longest input line accepted; a longer one becomes a bad_json error record.", valueName: "size"))
    public var maxLine = ByteCount(1 << 20)

    /// Trace requests and decisions.
    @Flag(name: .long, help: "Trace each request, answer, retry and decision on stderr (API keys masked).")
    public var verbose = false

    /// The defaults.
    public init() {}

    public func validate() throws {
        guard buffer >= 1 else { throw ValidationError("--buffer must be at least 1.") }
        guard maxLine.bytes >= 64 else { throw ValidationError("--max-line must be at least 64 bytes.") }
    }

    /// The options as the stage kit takes them.
    public var stageOptions: StageOptions {
        StageOptions(buffer: buffer, strict: strict, quiet: quiet, maxLine: maxLine, verbose: verbose)
    }
}
