import ArgumentParser
import SposureCLI

/// A number of pixels given as a count (`16777216`, `16M`, `1G`) or as `WxH`.
struct PixelCount: ExpressibleByArgument, Equatable {
    var value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        if let size = Dimensions(argument: argument) {
            let (product, overflow) = size.width.multipliedReportingOverflow(by: size.height)
            guard !overflow, size.width >= 0, size.height >= 0 else { return nil }
            value = product
            return
        }
        let text = argument.lowercased()
        let scale: Int
        switch text.last {
        case "k": scale = 1_000
        case "m": scale = 1_000_000
        case "g": scale = 1_000_000_000
        default: scale = 1
        }
        guard let number = Int(scale == 1 ? text : String(text.dropLast())), number >= 0 else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: scale)
        guard !overflow else { return nil }
        value = product
    }

    var defaultValueDescription: String { value == 4096 * 4096 ? "4096x4096" : "\(value)" }
}
