import ArgumentParser
import SposureCLI

/// A size given as `WxH` (`80x24`, `8×16`): the screen in cells (`--size`),
/// the pixels of a cell (`--cell`), a canvas (`--max-pixels`).
struct Dimensions: ExpressibleByArgument, Equatable {
    var width: Int
    var height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    init?(argument: String) {
        let parts = argument.lowercased().split(whereSeparator: { $0 == "x" || $0 == "×" })
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else { return nil }
        self.init(width: width, height: height)
    }

    var defaultValueDescription: String { "\(width)x\(height)" }
}
