import Foundation
import Testing

/// The shared test corpora, `../shared/corpus` beside the package (or
/// `$SPOSURE_CORPUS`). A fresh clone elsewhere has none: the tests that need
/// it are skipped with a message saying so, and run whenever it is there.
enum Corpus {
    /// The corpus folder.
    static let root: String = {
        if let path = ProcessInfo.processInfo.environment["SPOSURE_CORPUS"], !path.isEmpty { return path }
        let package = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return package.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
    }()

    /// `root/relative`.
    static func path(_ relative: String) -> String { root + "/" + relative }

    /// Whether `relative` exists under the corpus.
    static func has(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }

    /// The bytes of `root/relative`.
    static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative))))
    }

    /// The files in `root/relative` ending in `suffix`, sorted.
    static func files(in relative: String, suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(relative))
            .filter { $0.hasSuffix(suffix) }.sorted()
    }

    static let pygif = "gif-suite/pygif"
    static let wuffs = "gif-suite/wuffs-artificial-gif"
    static let bad = "gif-bad"

    static func absent(_ folder: String) -> Comment {
        "\(path(folder)) is absent (a clone without ../shared/corpus): these tests need it and are skipped"
    }
}
