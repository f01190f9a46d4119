import ArgumentParser
#if canImport(Glibc)
import Glibc
#endif

extension ParsableCommand {
    /// Parses the command line and runs the command, as `main()` does, with
    /// SIGPIPE ignored first: a reader that stops early (`tool --help | head
    /// -n1`) is a normal end, exit 0, never death by signal 141. The stages
    /// see the closed pipe as EPIPE and stop quietly, as the contract says.
    public static func mainIgnoringClosedPipes() {
        signal(SIGPIPE, SIG_IGN)
        main(nil)
    }
}

/// A Sposure tool's top command: a closed pipe downstream is a normal end
/// (``ParsableCommand/mainIgnoringClosedPipes()``), and its configuration
/// comes from ``CommandConfiguration/tool(_:abstract:usage:discussion:subcommands:defaultSubcommand:)``.
public protocol SposureTool: ParsableCommand {}

extension SposureTool {
    /// Runs the tool, SIGPIPE ignored.
    public static func main() { mainIgnoringClosedPipes() }
}

extension CommandConfiguration {
    /// The configuration of the tool `name`: its help, subcommands, and the build's version.
    public static func tool(_ name: String, abstract: String, usage: String? = nil, discussion: String,
                            subcommands: [any ParsableCommand.Type] = [],
                            defaultSubcommand: (any ParsableCommand.Type)? = nil) -> CommandConfiguration {
        CommandConfiguration(commandName: name, abstract: abstract, usage: usage, discussion: discussion,
                             version: SposureVersion.text, subcommands: subcommands, defaultSubcommand: defaultSubcommand)
    }
}
