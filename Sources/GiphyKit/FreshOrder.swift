import HistoryKit
import LadderKit
import RecordKit
import SposureKit

/// New GIFs first: on a ladder rung (or a plain query), `list` holds back the
/// GIFs shown in the last N rounds there (``SeenFile/recent(query:ladder:rung:rounds:)``)
/// and lists them only when the pages run out, the longest unseen first, so
/// a later round opens with GIFs the earlier ones did not show. Held lines
/// are bounded (``capacity``): past it the most lately seen are left out.
public final class FreshOrder: @unchecked Sendable {
    /// The most records held back at once.
    public static let capacity = 200

    private let file: SeenFile
    private let rounds: Int?
    private let lock = Lock()
    private var ages: [String: [String: Int]] = [:]
    private var held: [(age: Int, order: Int, line: [UInt8])] = []
    private var order = 0
    private var problem: String?

    /// Over the rounds in `file`; `rounds` (`--fresh-rounds`) wins over each
    /// page's `fresh_rounds` and the default, ``LadderRules/defaultFreshRounds``.
    public init(file: SeenFile, rounds: Int? = nil) {
        self.file = file
        self.rounds = rounds
    }

    /// How many rounds ago each GIF (`provider:id`) was last shown on the
    /// page's rung (or query), for the GIFs shown in the last N rounds there (0: the latest).
    public func ages(page: PageRequest, record: JSONRecord) -> [String: Int] {
        let count = rounds ?? page.freshRounds ?? LadderRules.defaultFreshRounds
        guard count > 0 else { return [:] }
        let tag = LadderTag(record: record)
        let context = "\(count)\u{0}" + (tag.map { "\($0.ladder)\u{0}\($0.rung)" } ?? "\u{0}\u{0}" + (page.query ?? ""))
        return lock.withLock {
            if let known = ages[context] { return known }
            var found: [String: Int] = [:]
            do {
                for (gif, age) in try file.recent(query: page.query, ladder: tag?.ladder, rung: tag?.rung, rounds: count) {
                    found[gif.key] = min(found[gif.key] ?? age, age)
                }
            } catch {
                problem = "\(error)"
            }
            ages[context] = found
            return found
        }
    }

    /// Holds `line` back, seen `age` rounds ago; returns false when the
    /// hold is full and this or a more lately seen line was left out.
    public func hold(_ line: [UInt8], age: Int) -> Bool {
        lock.withLock {
            order += 1
            guard held.count >= Self.capacity else {
                held.append((age, order, line))
                return true
            }
            // Full: the most lately seen (the least age, the last listed) gives way.
            guard let newest = held.indices.min(by: { (held[$0].age, -held[$0].order) < (held[$1].age, -held[$1].order) }),
                  held[newest].age < age else { return false }
            held[newest] = (age, order, line)
            return false
        }
    }

    /// The held lines, the longest unseen first (then in the order listed), and the hold emptied.
    public func release() -> [[UInt8]] {
        lock.withLock {
            let lines = held.sorted { ($0.age, -$0.order) > ($1.age, -$1.order) }.map(\.line)
            held.removeAll()
            return lines
        }
    }

    /// Why the seen file could not be read, when it could not (the run goes on without it).
    public var readProblem: String? { lock.withLock { problem } }
}
