/// A row of choice cells centred on a line of the screen, and the cell a
/// click's column falls in: each cell is its label with a space either side,
/// the cells one column apart; on a narrow screen the spaces inside the cells
/// go first, then those between them, so every choice stays on screen
/// (0-10 needs 41 columns roomy, 22 tight).
public struct ChoiceRow: Sendable, Equatable {
    /// The labels, left to right.
    public let labels: [String]
    /// The first column (1-based) of each cell, and its width.
    public let cells: [(column: Int, width: Int)]
    /// The spaces either side of a label inside its cell (1, or 0 when narrow).
    public let padding: Int

    /// The row of `labels` centred on a screen `columns` wide, as roomy as
    /// fits (cut to fit only when even the tightest does not).
    public init(labels: [String], columns: Int) {
        self.labels = labels
        func total(padding: Int, gap: Int) -> Int {
            labels.reduce(0) { $0 + $1.count + 2 * padding } + gap * max(0, labels.count - 1)
        }
        let (padding, gap) = [(1, 1), (0, 1), (1, 0), (0, 0)].first { total(padding: $0.0, gap: $0.1) <= columns } ?? (0, 0)
        self.padding = padding
        var column = max(1, (columns - total(padding: padding, gap: gap)) / 2 + 1)
        var cells: [(Int, Int)] = []
        for label in labels {
            let width = label.count + 2 * padding
            cells.append((column, width))
            column += width + gap
        }
        self.cells = cells
    }

    /// The text of the cell of `label`: the label and its padding.
    public func cellText(_ label: String) -> String {
        padding > 0 ? " \(label) " : label
    }

    /// The index of the cell at `column` (1-based); nil between cells or beside the row.
    public func index(atColumn column: Int) -> Int? {
        cells.firstIndex { column >= $0.column && column < $0.column + $0.width }
    }

    public static func == (a: ChoiceRow, b: ChoiceRow) -> Bool {
        a.labels == b.labels && a.padding == b.padding && a.cells.map(\.column) == b.cells.map(\.column) && a.cells.map(\.width) == b.cells.map(\.width)
    }
}
