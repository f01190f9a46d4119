/// A row of choice cells centred on a line of the screen, and the cell a
/// click's column falls in: each cell is its label with a space either side,
/// the cells one column apart.
public struct ChoiceRow: Sendable, Equatable {
    /// The labels, left to right.
    public let labels: [String]
    /// The first column (1-based) of each cell, and its width.
    public let cells: [(column: Int, width: Int)]

    /// The row of `labels` centred on a screen `columns` wide (cut to fit).
    public init(labels: [String], columns: Int) {
        self.labels = labels
        let widths = labels.map { $0.count + 2 }
        let total = widths.reduce(0, +) + max(0, widths.count - 1)
        var column = max(1, (columns - total) / 2 + 1)
        var cells: [(Int, Int)] = []
        for width in widths {
            cells.append((column, width))
            column += width + 1
        }
        self.cells = cells
    }

    /// The index of the cell at `column` (1-based); nil between cells or beside the row.
    public func index(atColumn column: Int) -> Int? {
        cells.firstIndex { column >= $0.column && column < $0.column + $0.width }
    }

    public static func == (a: ChoiceRow, b: ChoiceRow) -> Bool {
        a.labels == b.labels && a.cells.map(\.column) == b.cells.map(\.column) && a.cells.map(\.width) == b.cells.map(\.width)
    }
}
