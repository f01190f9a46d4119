import FoundationEssentials
import Glibc
import SposureKit

/// Judges a round from each program's exit status, for `sposure play`,
/// `record`, `replay` and `demo` (and so for `pipelines/`, which call them).
///
/// A stage's exit 1 (`giphy-pages`, `fetch-images`: some records became
/// error records) is part of a played round: the score counts those records
/// as errors, and one line says so. The verdict:
/// - 0: the round was played and scored;
/// - 1: it could not be: one line says which stage and why (exit 2, a signal,
///   `score` finding no round, a save that failed, or not one GIF shown
///   because an earlier stage failed every record);
/// - 129/130/143: a stage was interrupted (hang-up, Ctrl-C, SIGTERM); the
///   score, when there is one, came first.
public struct RoundJudge: Sendable, Equatable {
    /// The status the command exits with.
    public var status: Int32
    /// The lines to say on stderr, in order.
    public var lines: [String]

    /// Judges `statuses` (stage name and exit status, in pipeline order);
    /// `eventsShowedAGIF` tells whether gif-play's events hold a `shown` record.
    public init(_ statuses: [(name: String, status: Int32)], eventsShowedAGIF: @autoclosure () -> Bool) {
        var cause: String?
        var interrupted: Int32?
        var partial: [String] = []
        var scoreFoundNoRound = false
        for (name, status) in statuses {
            switch (name, status) {
            case (_, 0):
                break
            case (_, 129), (_, 130), (_, 143):
                interrupted = interrupted ?? status
            case ("giphy-pages plan", 1), ("giphy-pages list", 1), ("fetch-images", 1):
                partial.append(name)
            // A stage whose reader has gone (the round ended first) stops there: a normal end.
            case ("giphy-pages plan", 141), ("giphy-pages list", 141), ("fetch-images", 141):
                break
            case ("score", 1):
                scoreFoundNoRound = true
            case _ where name.hasPrefix("save "):
                cause = cause ?? "could not write \(name.dropFirst(5)) (tee exit \(status))"
            case _ where status > 128:
                cause = cause ?? "\(name) was killed by SIG\(Self.signalName(status - 128))"
            default:
                cause = cause ?? "\(name) failed (exit \(status); its message is above)"
            }
        }
        // A round interrupted before gif-play wrote an event leaves score
        // nothing to score: that is the interruption, not a failure of its own.
        if scoreFoundNoRound && interrupted == nil { cause = cause ?? "score found no round in gif-play's events" }
        if let cause {
            self.init(status: 1, lines: ["the round could not be played or scored: \(cause)"])
            return
        }
        if let interrupted {
            self.init(status: interrupted, lines: [])
            return
        }
        if let failed = partial.first, !eventsShowedAGIF() {
            self.init(status: 1, lines: [
                "the round could not be played: no GIF was shown, and \(failed) failed (exit 1: every record an error, or the key refused; see above and the score's errors)",
            ])
            return
        }
        self.init(status: 0, lines: partial.map { name in
            name == "fetch-images"
                ? "some GIFs could not be fetched (fetch-images exit 1): the score counts them under errors"
                : "some pages could not be listed (\(name) exit 1): the score counts them under errors"
        })
    }

    /// A verdict as it is.
    public init(status: Int32, lines: [String]) {
        self.status = status
        self.lines = lines
    }

    /// Whether the events file at `path` holds a `shown` record.
    public static func showedAGIF(eventsAt path: String) -> Bool {
        guard let bytes = try? readFile(path, maxBytes: 1 << 30) else { return false }
        return contains(bytes, #""kind":"shown""#)
    }

    /// Whether `text` is somewhere in `bytes` (as grep -F finds it).
    public static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard !needle.isEmpty, bytes.count >= needle.count else { return needle.isEmpty }
        for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
            if bytes[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    /// "KILL" for 9, as `kill -l` says it; the number for one it does not know.
    public static func signalName(_ number: Int32) -> String {
        let names = ["HUP", "INT", "QUIT", "ILL", "TRAP", "ABRT", "BUS", "FPE", "KILL", "USR1", "SEGV", "USR2",
                     "PIPE", "ALRM", "TERM", "STKFLT", "CHLD", "CONT", "STOP", "TSTP", "TTIN", "TTOU", "URG",
                     "XCPU", "XFSZ", "VTALRM", "PROF", "WINCH", "IO", "PWR", "SYS"]
        return (1...names.count).contains(Int(number)) ? names[Int(number) - 1] : "\(number)"
    }
}
