/// A row of block characters, one a value: `▁▂▃▄▅▆▇█`.
public enum Sparkline {
    /// The eight levels, lowest first.
    public static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// One character for each of `values`, scaled from 0 to the largest (so a
    /// round twice as long stands twice as high); all `▁` when every value is 0.
    public static func render(_ values: [Int]) -> String {
        let top = values.max() ?? 0
        guard top > 0 else { return String(repeating: levels[0], count: values.count) }
        return String(values.map { value in
            let level = Int((Double(max(0, value)) / Double(top) * Double(levels.count - 1)).rounded())
            return levels[min(levels.count - 1, max(0, level))]
        })
    }
}
