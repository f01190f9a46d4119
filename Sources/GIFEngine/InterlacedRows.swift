/// Maps the n-th row stored in an image's data to its row in the image.
///
/// Interlaced images store rows in four passes: every 8th row from 0, every
/// 8th from 4, every 4th from 2, every 2nd from 1.
struct InterlacedRows {
    private let height: Int
    private let interlaced: Bool

    /// The mapping for an image `height` rows tall.
    init(height: Int, interlaced: Bool) {
        self.height = height
        self.interlaced = interlaced
    }

    /// The image row where stored row `index` goes.
    func row(_ index: Int) -> Int {
        guard interlaced else { return index }
        // Rows in each pass: ceil((height - start) / step).
        let pass1 = (height + 7) / 8
        if index < pass1 { return index * 8 }
        let pass2 = (height + 3) / 8
        if index < pass1 + pass2 { return (index - pass1) * 8 + 4 }
        let pass3 = (height + 1) / 4
        if index < pass1 + pass2 + pass3 { return (index - pass1 - pass2) * 4 + 2 }
        return (index - pass1 - pass2 - pass3) * 2 + 1
    }
}
