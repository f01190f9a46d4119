import Foundation
import Testing
import TestSupport

/// Issue 23, installed like a Unix tool: `make install-built` (what `make
/// install` runs after the release build) into a temp prefix from the built
/// tools, then the three checks: `man -l` renders every page, `sposure demo`
/// plays headless from the prefix with the clone out of reach, and `make
/// uninstall` leaves nothing.
@Suite(.serialized) struct InstallTests {
    /// The checkout: two folders up from this file.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let tools = ["giphy-pages", "fetch-images", "gif-play", "score", "sposure"]

    /// Runs `arguments` with `environment` (nothing inherited but what is given), in `directory`.
    func run(_ arguments: [String], environment: [String: String], directory: URL? = nil) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["-i"] + environment.map { "\($0.key)=\($0.value)" } + arguments
        if let directory { process.currentDirectoryURL = directory }
        return try process.runDrained()
    }

    /// `text` without the overstrikes man writes for bold and underline ("N\u{8}N").
    static func plain(_ text: String) -> String {
        var out: [Character] = []
        for character in text {
            if character == "\u{8}" { _ = out.popLast() } else { out.append(character) }
        }
        return String(out)
    }

    /// Every file and link under `folder`, relative to it.
    func files(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            return !isFolder.boolValue
        }.sorted()
    }

    @Test func installsManPagesCompletionsAndADemoThatPlaysThenUninstallsToNothing() throws {
        let built = try StageProcess.executableURL(named: "sposure").deletingLastPathComponent()
        let manual = built.appendingPathComponent("generate-manual")
        guard FileManager.default.isExecutableFile(atPath: manual.path) else {
            print("InstallTests: skipped: \(manual.path) is not built (make test builds it: swift build --product generate-manual)")
            return
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            print("InstallTests: skipped: man is not installed (make test installs man-db and groff-base)")
            return
        }
        try withTemporaryDirectory { folder in
            let prefix = folder.appendingPathComponent("prefix")
            let system = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder.path, "TMPDIR": folder.path]
            let install = try run(["make", "--no-print-directory", "-C", Self.root.path, "install-built", "BIN=\(built.path)",
                                   "MANUAL_TOOL=\(manual.path)", "MAN_BUILD=\(folder.path)/man", "PREFIX=\(prefix.path)"],
                                  environment: system)
            try #require(install.status == 0, "\(install.out)\n\(install.err)")
            let installed = files(under: prefix)
            for tool in Self.tools {
                #expect(installed.contains("bin/\(tool)"))
                #expect(installed.contains("share/man/man1/\(tool).1"))
                #expect(installed.contains("share/bash-completion/completions/\(tool)"))
                #expect(installed.contains("share/zsh/site-functions/_\(tool)"))
                #expect(installed.contains("share/fish/vendor_completions.d/\(tool).fish"))
            }
            for command in ["play", "demo", "ladder", "history", "doctor", "record", "replay"] {
                #expect(installed.contains("share/man/man1/sposure.\(command).1"), "\(installed)")
            }

            // man -l renders each page.
            let pages = installed.filter { $0.hasPrefix("share/man/man1/") }
            #expect(pages.count >= 5 + 7)
            for page in pages {
                let shown = try run(["man", "-l", prefix.appendingPathComponent(page).path],
                                    environment: system.merging(["MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0"]) { $1 })
                #expect(shown.status == 0, "\(page): \(shown.err)")
                let text = Self.plain(shown.out)
                #expect(text.contains("NAME") && text.contains("SYNOPSIS"), "\(page): \(text)")
            }

            // The demo plays headless from the prefix alone: no SPOSURE_BIN, the
            // prefix first on PATH, run from an empty folder.
            let elsewhere = folder.appendingPathComponent("elsewhere")
            try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
            let demo = try run([prefix.path + "/bin/sposure", "demo", "--headless"],
                               environment: system.merging(["PATH": prefix.path + "/bin:/usr/bin:/bin",
                                                            "SPOSURE_DATA": folder.path + "/data"]) { $1 },
                               directory: elsewhere)
            #expect(demo.status == 0, "\(demo.err)")
            #expect(demo.out.contains("G A M E   O V E R") && demo.out.contains("Points        105"), "\(demo.out)")
            let doctor = try run([prefix.path + "/bin/sposure", "doctor", "--no-call", "--format", "text"], environment: system)
            #expect(doctor.out.contains("✓ score 0.") && doctor.out.contains(prefix.path + "/bin/score"), "\(doctor.out)")

            let uninstall = try run(["make", "--no-print-directory", "-C", Self.root.path, "uninstall", "PREFIX=\(prefix.path)"],
                                    environment: system)
            #expect(uninstall.status == 0, "\(uninstall.err)")
            #expect(files(under: prefix).isEmpty, "left behind: \(files(under: prefix))")
        }
    }
}
