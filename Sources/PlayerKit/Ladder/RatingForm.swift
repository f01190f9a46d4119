import RecordKit
import LadderKit

/// The questions of one side of a ladder round (before or after) as a pure
/// state: keys and clicks in, the `rating` event's answers out. ``Player``
/// draws it (``page(columns:rows:expectation:)``) and reads the terminal.
public struct RatingForm: Sendable {
    /// What an input did.
    public enum Step: Sendable, Equatable {
        /// Nothing: not a key or click that answers.
        case ignored
        /// The question was answered or skipped (Esc): on to the next, if any.
        case next
        /// q: no more questions (before the round: it ends without playing).
        case quit
        /// Ctrl-C as a key: the run ends as SIGINT ends it.
        case interrupt
        /// Ctrl-Z as a key: the player suspends as the terminal would, the question stays.
        case suspend
    }

    /// The questions, in order.
    public let questions: [RatingQuestion]
    /// The answers so far.
    public private(set) var rating: RoundEvent.Rating
    private var index = 0

    /// The questions asked `when`.
    public init(_ when: RoundEvent.Rating.When) {
        questions = when == .before ? RatingQuestion.before : RatingQuestion.after
        rating = RoundEvent.Rating(when: when)
    }

    /// The question asked now; nil when all are answered or skipped.
    public var current: RatingQuestion? { index < questions.count ? questions[index] : nil }

    /// Answers the current question with `value` (a choice's value).
    public mutating func answer(_ value: Int) {
        guard let question = current else { return }
        switch question {
        case .sudsBefore, .sudsAfter: rating.suds = value
        case .expectPct: rating.expectPct = value
        case .peak: rating.peak = value
        case .happened: rating.happened = value != 0
        }
        index += 1
    }

    /// Skips the current question: its answer stays absent.
    public mutating func skip() {
        index = min(index + 1, questions.count)
    }

    /// Takes one input event: a key that answers, Esc, q, Ctrl-C, or a
    /// press of the left button on a cell of `row`, drawn on line `rowLine`.
    public mutating func take(_ event: InputEvent, row: ChoiceRow, rowLine: Int) -> Step {
        guard let question = current else { return .ignored }
        switch event {
        case .key(let code, let kind) where kind != .release:
            switch (StopKey(code: code), code) {
            case (_, 27): skip(); return .next  // Esc skips a question here
            case (.interrupt, _): return .interrupt
            case (.quit, _): return .quit
            case (.suspend, _): return .suspend
            default:
                guard kind == .press, let value = question.answer(key: code) else { return .ignored }
                answer(value)
                return .next
            }
        case .mouse(0, let x, let y, true) where y == rowLine:
            guard let cell = row.index(atColumn: x) else { return .ignored }
            answer(question.choices[cell].value)
            return .next
        default:
            return .ignored
        }
    }

    /// What the screen shows for the current question, `columns` × `rows`:
    /// the lines (row, column, text, drawn as a cell), the choice row and
    /// its line. Empty when no question is left.
    public func page(columns: Int, rows: Int, expectation: String?) -> (lines: [PageLine], row: ChoiceRow, rowLine: Int) {
        guard let question = current else { return ([], ChoiceRow(labels: [], columns: columns), 0) }
        let text = question.text(expectation: expectation)
        let choices = ChoiceRow(labels: question.choices.map(\.label), columns: columns)
        let counter = "\(rating.when == .before ? "Before the round" : "After the round") · \(index + 1) of \(questions.count)"
        let height = 2 + text.count + 1 + 1 + 2
        let top = max(1, (rows - height) / 2 + 1)
        var lines: [PageLine] = [PageLine.centred(counter, row: top, columns: columns, dim: true)]
        for (offset, line) in text.enumerated() where !line.isEmpty {
            lines.append(PageLine.centred(line, row: top + 2 + offset, columns: columns, dim: offset > 0))
        }
        let rowLine = top + 2 + text.count + 1
        for (cell, label) in zip(choices.cells, choices.labels) {
            lines.append(PageLine(row: rowLine, column: cell.column, text: choices.cellText(label), cell: true))
        }
        lines.append(PageLine.centred(question.keys, row: rowLine + 2, columns: columns, dim: true))
        return (lines, choices, rowLine)
    }
}

/// A line of text placed on the screen: a question, a choice cell, a hint.
public struct PageLine: Sendable, Equatable {
    /// Row and column, 1-based.
    public var row: Int, column: Int
    /// The text (made plain before it is drawn).
    public var text: String
    /// Drawn as a cell (reverse video).
    public var cell = false
    /// Drawn dim.
    public var dim = false

    /// A line at `row`, `column`.
    public init(row: Int, column: Int, text: String, cell: Bool = false, dim: Bool = false) {
        self.row = row
        self.column = column
        self.text = text
        self.cell = cell
        self.dim = dim
    }

    /// `text` centred on a screen `columns` wide (cut to fit).
    public static func centred(_ text: String, row: Int, columns: Int, dim: Bool = false) -> PageLine {
        let cut = String(text.prefix(max(1, columns - 1)))
        return PageLine(row: row, column: max(1, (columns - cut.count) / 2 + 1), text: cut, dim: dim)
    }
}
