import HistoryKit
import LadderKit

/// The rounds a ``HistoryChart`` draws, taken one at a time and thinned to the
/// chart's pixel columns, so a history of any length draws in memory that
/// does not grow with it.
///
/// Up to ``columns`` rounds, every round is its own column and the chart is
/// exactly as it was drawn from every round. Beyond that, each pixel column
/// keeps only its extremes: the rounds of least and most exposure, the lowest
/// and highest distress before and after, the highest peak, and the last rung
/// of each ladder; the best round (the most exposure, the earliest on a tie)
/// is always the most of its column, so it is kept.
public struct HistoryChartData: Sendable {
    /// The chart's pixel columns between its first and last round.
    public static let columns = 748

    /// How many rounds the chart is of.
    public let count: Int
    /// Whether columns hold more than one round.
    public var thinned: Bool { count > Self.columns }
    /// Rounds taken so far.
    public private(set) var taken = 0

    /// One round kept: its place and what the chart says of it.
    struct Mark: Sendable {
        var index: Int
        var entry: HistoryEntry
    }

    /// A value of one round (a rating, a rung), at its place.
    struct Point: Sendable, Equatable {
        var index: Int
        var value: Int
    }

    /// What one column keeps.
    struct Column: Sendable {
        var least: Mark?
        var most: Mark?
        var before: (low: Point, high: Point)?
        var after: (low: Point, high: Point)?
        var peak: Point?
        /// The last rung of each ladder in the column.
        var rungs: [String: Point] = [:]
    }

    var columnsKept: [Column]
    var best: Mark?
    var firstDate: String?
    var lastDate: String?
    /// The dates under the distress panel, by round index (nil: the round has no date).
    var labelDates: [Int: String?] = [:]
    private let labelIndices: Set<Int>
    /// Ladders in the order they first appear, and the highest rung seen.
    var ladders: [String] = []
    var topRung = 0

    /// A chart of `count` rounds, given next with ``add(_:)``, oldest first.
    public init(count: Int) {
        self.count = max(0, count)
        columnsKept = Array(repeating: Column(), count: min(self.count, Self.columns))
        labelIndices = Set(HistoryChart.labelIndices(count: self.count, most: 6))
    }

    /// The data of `entries`, oldest first.
    public init(entries: [HistoryEntry]) {
        self.init(count: entries.count)
        for entry in entries { add(entry) }
    }

    /// The column of round `index`.
    func column(of index: Int) -> Int {
        thinned ? index * Self.columns / count : index
    }

    /// Takes the next round; rounds past `count` are ignored.
    public mutating func add(_ entry: HistoryEntry) {
        guard taken < count else { return }
        let index = taken
        taken += 1
        let date = entry.date
        if let date {
            if firstDate == nil { firstDate = date }
            lastDate = date
        }
        if labelIndices.contains(index) { labelDates[index] = .some(date) }
        let mark = Mark(index: index, entry: entry)
        if entry.exposedMs > (best?.entry.exposedMs ?? -1) { best = mark }

        let place = column(of: index)
        var column = columnsKept[place]
        if entry.exposedMs > (column.most?.entry.exposedMs ?? -1) { column.most = mark }
        if entry.exposedMs < (column.least?.entry.exposedMs ?? Int.max) { column.least = mark }
        let ratings = Self.ratings(entry)
        if let before = ratings.before { column.before = Self.widen(column.before, Point(index: index, value: before)) }
        if let after = ratings.after { column.after = Self.widen(column.after, Point(index: index, value: after)) }
        if let peak = ratings.peak, peak > (column.peak?.value ?? -1) { column.peak = Point(index: index, value: peak) }
        if let tag = entry.ladder {
            if !ladders.contains(tag.ladder) { ladders.append(tag.ladder) }
            topRung = max(topRung, tag.rung)
            column.rungs[tag.ladder] = Point(index: index, value: tag.rung)
        }
        columnsKept[place] = column
    }

    /// The distress the chart plots for `entry`: both ratings of any round
    /// (`--distress` or the player's); on a ladder round, a lone one and the peak too.
    static func ratings(_ entry: HistoryEntry) -> (before: Int?, after: Int?, peak: Int?) {
        if let distress = entry.distress {
            return (distress.before, distress.after, entry.ladder == nil ? nil : entry.ratings.peak)
        }
        guard entry.ladder != nil else { return (nil, nil, nil) }
        return (entry.ratings.sudsBefore, entry.ratings.sudsAfter, entry.ratings.peak)
    }

    private static func widen(_ range: (low: Point, high: Point)?, _ point: Point) -> (low: Point, high: Point) {
        guard let range else { return (point, point) }
        return (point.value < range.low.value ? point : range.low, point.value > range.high.value ? point : range.high)
    }

    /// The exposure marks, in round order: each column's least and most (one when they are the same round).
    var exposureMarks: [Mark] {
        columnsKept.flatMap { column -> [Mark] in
            guard let least = column.least, let most = column.most else { return [] }
            if least.index == most.index { return [least] }
            return least.index < most.index ? [least, most] : [most, least]
        }
    }

    /// The points of one rating, in round order: each column's lowest and highest.
    func ratingPoints(_ which: KeyPath<Column, (low: Point, high: Point)?>) -> [Point] {
        columnsKept.flatMap { column -> [Point] in
            guard let range = column[keyPath: which] else { return [] }
            if range.low.index == range.high.index { return [range.low] }
            return range.low.index < range.high.index ? [range.low, range.high] : [range.high, range.low]
        }
    }

    /// The peaks, in round order.
    var peakPoints: [Point] { columnsKept.compactMap(\.peak) }

    /// The rungs of `ladder`, in round order: each column's last.
    func rungPoints(_ ladder: String) -> [Point] { columnsKept.compactMap { $0.rungs[ladder] } }

    /// The most exposure of any round.
    var maxExposedMs: Int { best?.entry.exposedMs ?? 0 }
}
