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
