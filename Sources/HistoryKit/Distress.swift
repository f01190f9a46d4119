import LadderKit
import FoundationEssentials
import Glibc
import SposureKit

/// How anxious the person felt before and after a round, each from 0 (calm) to 10.
///
/// Exposure therapy tracks this "subjective units of distress" rating: over
/// rounds the rating before a round should fall, and within a round the rating
/// after should be lower than before.
public struct Distress: Sendable, Equatable {
    /// The rating before the round, 0–10.
    public var before: Int
    /// The rating after the round, 0–10.
    public var after: Int

    /// The highest rating.
    public static let scale = 0...10

    /// A pair of ratings; nil unless both are within ``scale``.
    public init?(before: Int, after: Int) {
        guard Self.scale.contains(before), Self.scale.contains(after) else { return nil }
        self.before = before
        self.after = after
    }

    /// Parses `BEFORE,AFTER` as given to `--distress` (`7,4`).
    public static func parse(_ text: String) throws(DistressError) -> Distress {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingWhitespace() }
        guard parts.count == 2 else { throw DistressError(text: text, problem: "give two ratings, BEFORE,AFTER (e.g. 7,4)") }
        var ratings: [Int] = []
        for part in parts {
            guard let value = Int(part), part.allSatisfy(\.isASCII) else {
                throw DistressError(text: text, problem: "\"\(part)\" is not a whole number")
            }
            guard scale.contains(value) else {
                throw DistressError(text: text, problem: "\(value) is outside 0–10 (0 calm, 10 the worst)")
            }
            ratings.append(value)
        }
        guard let distress = Distress(before: ratings[0], after: ratings[1]) else {
            throw DistressError(text: text, problem: "ratings go from 0 to 10")
        }
        return distress
    }
}

/// Why a `--distress` value was refused.
public struct DistressError: Error, CustomStringConvertible, Sendable {
    /// The value given.
    public var text: String
    /// What is wrong with it.
    public var problem: String
    public var description: String { "--distress \(text): \(problem)." }
}
