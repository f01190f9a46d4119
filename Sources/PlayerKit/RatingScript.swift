import FoundationEssentials
import Glibc
import LadderKit
import SposureKit

/// Ratings read from a file instead of asked (`--ratings script:FILE`), one
/// JSON object a line, blank lines skipped:
///
///     {"when":"before","suds":7,"expect_pct":80}
///     {"when":"after","peak":8,"suds":4,"happened":false}
///     {"t_ms":4200,"rated":8}
///
/// `before` and `after` give the answers (a field left out is a skipped
/// answer); `rated` presses a digit at `t_ms` during play, rating the GIF on
/// screen then. On a virtual clock the same file gives the same events.
public struct RatingScript: Sendable, Equatable {
    /// The answers before the first hold, if the file gives them.
    public var before: RoundEvent.Rating?
    /// The answers after the round, if the file gives them.
    public var after: RoundEvent.Rating?
    /// Digits pressed during play: when, and which, in time order.
    public var rated: [(atMs: Int, rating: Int)]

    /// A script of these answers.
    public init(before: RoundEvent.Rating? = nil, after: RoundEvent.Rating? = nil, rated: [(atMs: Int, rating: Int)] = []) {
        self.before = before
        self.after = after
        self.rated = rated.sorted { $0.atMs < $1.atMs }
    }

    public static func == (a: RatingScript, b: RatingScript) -> Bool {
        a.before == b.before && a.after == b.after && a.rated.map(\.atMs) == b.rated.map(\.atMs)
            && a.rated.map(\.rating) == b.rated.map(\.rating)
    }

    /// Reads a ratings file; throws with the line and what is wrong.
    public static func load(path: String) throws -> RatingScript {
        try parse(String(contentsOfFile: path, encoding: .utf8), name: path)
    }

    /// Reads the text of a ratings file named `name` in messages.
    public static func parse(_ text: String, name: String) throws -> RatingScript {
        var script = RatingScript()
        var rated: [(Int, Int)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingWhitespace()
            guard !trimmed.isEmpty else { continue }
            let fail = { (what: String) in ScriptedHold.ScriptError(message: "\(name):\(number + 1): \(what)") }
            let record: JSONRecord
            do { record = try JSONRecord.parse(trimmed) } catch { throw fail("\(error)") }
            func scale(_ key: String, _ range: ClosedRange<Int>) throws -> Int? {
                guard record.has(key) else { return nil }
                guard let value = record.int(key), range.contains(value) else {
                    throw fail("\"\(key)\" must be a whole number from \(range.lowerBound) to \(range.upperBound)")
                }
                return value
            }
            if record.has("rated") {
                guard let at = record.int("t_ms"), at >= 0 else { throw fail("a \"rated\" line needs \"t_ms\" (≥ 0)") }
                rated.append((at, try scale("rated", 0...9) ?? 0))
                continue
            }
            let (rating, problems) = RoundRating.read(record)
            guard let rating else { throw fail("each line needs \"when\": \"before\" or \"after\", or \"t_ms\" and \"rated\"") }
            if let problem = problems.first { throw fail(problem) }
            if rating.when == .before { script.before = rating } else { script.after = rating }
        }
        script.rated = rated.sorted { $0.0 < $1.0 }.map { (atMs: $0.0, rating: $0.1) }
        return script
    }
}
