import RecordKit
import FoundationEssentials
import Glibc
import LadderKit
import HistoryKit
import SposureKit

/// Skips, on a ladder round's pages, the GIFs the person already rated well
/// above the rung (3 or more over the rung's SUDS / 10, with a digit key while
/// playing that ladder), before they are fetched; counts what it skipped.
public final class RatedSkip: @unchecked Sendable {
    private let file: GIFRatingFile
    private let lock = Lock()
    private var byLadder: [String: [String: GIFRating]] = [:]
    private var count = 0
    private var problem: String?

    /// A filter over the ratings in `file`.
    public init(file: GIFRatingFile) {
        self.file = file
    }

    /// Whether to skip the GIF keyed `provider:id` on the page `pageRecord`
    /// (never off a ladder, or when the page says no `rung_suds`).
    public func skips(key: String, page pageRecord: JSONRecord?) -> Bool {
        guard let pageRecord, let tag = LadderTag(record: pageRecord), pageRecord.has(LadderTag.Field.rungSuds) else { return false }
        return lock.withLock {
            if byLadder[tag.ladder] == nil {
                do {
                    byLadder[tag.ladder] = try file.latest(ladder: tag.ladder)
                } catch {
                    problem = "\(error)"
                    byLadder[tag.ladder] = [:]
                }
            }
            guard let rating = byLadder[tag.ladder]?[key], rating.isWellAbove(rungSuds: tag.rungSuds) else { return false }
            count += 1
            return true
        }
    }

    /// GIFs skipped so far.
    public var skipped: Int { lock.withLock { count } }

    /// Why the ratings could not be read, when they could not (the run goes on without them).
    public var readProblem: String? { lock.withLock { problem } }
}
