/// The text cells that show a kitty image placed virtually (`U=1`): each is
/// U+10EEEE, its foreground colour the image id, the first of a row with the
/// row and column numbers as diacritics (the cells after it count on by
/// themselves). tmux keeps them as text, so the picture survives its redraws.
enum KittyPlaceholders {
    /// U+10EEEE in UTF-8.
    static let placeholder: [UInt8] = [0xF4, 0x8E, 0xBB, 0xAE]

    /// Appends the cells of image `id` over `span`, top-left at (`row`, `col`).
    static func cells(id: UInt32, span: CellSpan, row: Int, col: Int, into out: inout [UInt8]) {
        let rows = min(span.rows, KittyDiacritics.all.count), columns = min(span.columns, KittyDiacritics.all.count)
        let color = "\u{1B}[38;2;\(id >> 16 & 0xFF);\(id >> 8 & 0xFF);\(id & 0xFF)m"
        for line in 0..<rows {
            out += Array("\u{1B}[\(row + line);\(col)H\(color)".utf8)
            out += placeholder
            out += utf8(KittyDiacritics.all[line])
            out += utf8(KittyDiacritics.all[0])
            for _ in 1..<max(1, columns) { out += placeholder }
        }
        out += Array("\u{1B}[39m".utf8)
    }

    /// The UTF-8 bytes of a diacritic (all below U+FFFF).
    private static func utf8(_ scalar: UInt32) -> [UInt8] {
        Array(String(Unicode.Scalar(scalar).map(Character.init) ?? " ").utf8)
    }
}
