import ArgumentParser
import FrontDoorKit
import Glibc
import ScoreKit
import SposureCLI
import SposureKit

/// `sposure doctor`: is everything in order for a round?
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that everything a round needs is in order: one line a check, and the fix for each that failed.",
        discussion: """
            Like `brew doctor`: each line is marked ✓ (in order), ✗ (to fix before a \
            round, with the fix under it) or · (worth knowing). It checks, in order,
              tools      the four stages beside sposure (or on PATH), each of this version
              libraries  libcurl, giflib, jansson and libcrypto, as the stages load them
              keys       GIPHY_API_KEY and KLIPY_API_KEY: set or not, and whether each
                         works, by one real call (the API cache bypassed) when the
                         allowance has one to spare; --no-call spends none. With
                         neither set, Wikimedia Commons (no key needed) by one real call
              folders    the data, cache and config folders: writable, and their sizes;
                         the history readable
              terminal   what /dev/tty answered to gif-play's probes (kitty keyboard,
                         kitty graphics, sixel), the renderer and symbols a round would
                         use and why, the mouse and key-release support

            Text on a terminal, else one JSON "doctor" record; --format text|json \
            (sposure's own option) overrides.

            Exit status: 0 a round can be played (no check failed); 1 something needs fixing first; 64 usage.
            """)

    // --format is sposure's own: ArgumentParser gives an option the parent
    // declares to the parent, wherever it stands.
    @ParentCommand var sposure: Sposure

    @Flag(help: "Do not spend a call on each key: only say whether it is set.")
    var noCall = false

    func run() throws {
        var doctor = Doctor(version: SposureVersion.text)
        doctor.callKeys = !noCall
        let diagnostics = Diagnostics(tool: "sposure doctor")
        let checks = doctor.run { diagnostics.progress("checking the \($0)…") }
        diagnostics.clearProgress()
        switch sposure.format ?? (isatty(1) == 1 ? .text : .json) {
        case .json: print(Doctor.record(checks).text)
        case .text:
            for line in Doctor.lines(checks, color: TextStyle.forOutput().color, width: WordWrap.terminalColumns(1)) { print(line) }
        }
        throw ExitCode(Doctor.playable(checks) ? 0 : 1)
    }
}
