import RecordKit
import HistoryKit
import SposureKit

/// Drops, before they are fetched, the GIFs the person marked off-topic
/// (the `x` key in gif-play, kept by `score` beside the ratings), on any
/// ladder or none: a GIF marked once is never listed again.
public final class OffTopicSkip: @unchecked Sendable {
    private let file: GIFRatingFile
    private let lock = Lock()
    private var marked: Set<String>?
    private var problem: String?

    /// A filter over the marks in `file` (read once, when first asked).
    public init(file: GIFRatingFile) {
        self.file = file
    }

    /// Whether the GIF keyed `provider:id` was marked off-topic.
    public func skips(key: String) -> Bool {
        lock.withLock {
            if marked == nil {
                do {
                    marked = Set(try file.marks().map { GIFRatingFile.key(provider: $0.source, id: $0.id) })
                } catch {
                    problem = "\(error)"
                    marked = []
                }
            }
            return marked?.contains(key) ?? false
        }
    }

    /// Why the marks could not be read, when they could not (the run goes on without them).
    public var readProblem: String? { lock.withLock { problem } }
}
