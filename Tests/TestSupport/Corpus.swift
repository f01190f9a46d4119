import Foundation

/// The shared test corpora, `../shared/corpus` beside the package (or
/// `$SPOSURE_CORPUS`). A fresh clone elsewhere has none: the tests that need
/// it are skipped with a message saying so, and run whenever it is there.
/// Under CI (`CI` set) a missing corpus is a failure, never a skip.
public enum Corpus {
    /// The corpus folder.
    public static let root: String = {
        if let path = ProcessInfo.processInfo.environment["SPOSURE_CORPUS"], !path.isEmpty { return path }
        let package = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return package.deletingLastPathComponent().appendingPathComponent("shared/corpus").path
    }()

    /// `root/relative`.
    public static func path(_ relative: String) -> String { root + "/" + relative }

    /// Whether `relative` exists under the corpus.
    public static func has(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }

    /// The bytes of `root/relative`.
    public static func bytes(_ relative: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path(relative))))
    }

    /// The files in `root/relative` ending in `suffix`, sorted.
    public static func files(in relative: String, suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path(relative))
            .filter { $0.hasSuffix(suffix) }.sorted()
    }

    public static let pygif = "gif-suite/pygif"
    public static let wuffs = "gif-suite/wuffs-artificial-gif"
    public static let bad = "gif-bad"

    /// Whether CI runs the tests: a corpus must be there.
    public static var required: Bool {
        !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty
    }

    /// Whether tests of `relative` run: it is there, or CI requires it (they
    /// then fail on the missing files instead of being skipped).
    public static func use(_ relative: String) -> Bool { has(relative) || required }

    /// Why the tests of `folder` are skipped (a `Comment` in the test targets:
    /// TestSupport is built without the testing library, by `swift build -c release` too).
    public static func absentReason(_ folder: String) -> String {
        "\(path(folder)) is absent (a clone without ../shared/corpus): these tests need it and are skipped"
    }
}
