import Foundation
import Testing
import TestSupport

/// Issue 23, installed like a Unix tool: `make install-built` (what `make
/// install` runs after the release build) into a temp prefix from the built
/// tools, then the three checks: `man -l` renders every page, `sposure demo`
/// plays headless from the prefix with the clone out of reach, and `make
/// uninstall` leaves nothing. Issue 28: install and uninstall touch nothing of
/// the person's (a page, a program or a folder of theirs, a prefix with a space).
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

    /// Every file, link and folder under `folder`, relative to it.
    func entries(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.sorted()
    }

    /// Every file and link under `folder`, relative to it.
    func files(under folder: URL) -> [String] {
        entries(under: folder).filter { path in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder)
            return !isFolder.boolValue
        }
    }

    /// The environment make runs in: the system's PATH, `folder` for HOME and TMPDIR.
    static func system(_ folder: URL) -> [String: String] {
        ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": folder.path, "TMPDIR": folder.path]
    }

    /// The folder of the built tools and its generate-manual; nil (the test skipped, saying so) when that is not built.
    func builtTools() throws -> (built: URL, manual: URL)? {
        let built = try StageProcess.executableURL(named: "sposure").deletingLastPathComponent()
        let manual = built.appendingPathComponent("generate-manual")
        guard FileManager.default.isExecutableFile(atPath: manual.path) else {
            print("InstallTests: skipped: \(manual.path) is not built (make test builds it: swift build --product generate-manual)")
            return nil
        }
        return (built, manual)
    }

    /// `make install-built` of the built tools into `prefix`, with the make variables `extra`.
    func makeInstall(_ tools: (built: URL, manual: URL), prefix: URL, in folder: URL, _ extra: [String] = []) throws -> (status: Int32, out: String, err: String) {
        try run(["make", "--no-print-directory", "-C", Self.root.path, "install-built", "BIN=\(tools.built.path)",
                 "MANUAL_TOOL=\(tools.manual.path)", "MAN_BUILD=\(folder.path)/man", "PREFIX=\(prefix.path)"] + extra,
                environment: Self.system(folder))
    }

    /// `make uninstall` of `prefix`.
    func makeUninstall(prefix: URL, in folder: URL) throws -> (status: Int32, out: String, err: String) {
        try run(["make", "--no-print-directory", "-C", Self.root.path, "uninstall", "PREFIX=\(prefix.path)"],
                environment: Self.system(folder))
    }

    @Test func installsManPagesCompletionsAndADemoThatPlaysThenUninstallsToNothing() throws {
        guard let tools = try builtTools() else { return }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            print("InstallTests: skipped: man is not installed (make test installs man-db and groff-base)")
            return
        }
        try withTemporaryDirectory { folder in
            let prefix = folder.appendingPathComponent("prefix")
            let system = Self.system(folder)
            let install = try makeInstall(tools, prefix: prefix, in: folder)
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
            // The manifest: each file install wrote, as installed, then each folder it made ("/" last).
            let manifest = try String(contentsOf: prefix.appendingPathComponent("share/sposure/installed.txt"), encoding: .utf8)
                .split(separator: "\n").map(String.init)
            #expect(manifest.filter { !$0.hasSuffix("/") }.sorted()
                        == installed.filter { $0 != "share/sposure/installed.txt" }.map { prefix.path + "/" + $0 }.sorted())
            #expect(manifest.contains(prefix.path + "/") && manifest.contains(prefix.path + "/share/sposure/"), "\(manifest)")

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
            #expect(doctor.out.contains(", score 0.") && doctor.out.contains("(in " + prefix.path + "/bin)"), "\(doctor.out)")

            let uninstall = try makeUninstall(prefix: prefix, in: folder)
            #expect(uninstall.status == 0, "\(uninstall.err)")
            #expect(files(under: prefix).isEmpty, "left behind: \(files(under: prefix))")
            // install made the prefix and every folder in it: uninstall takes them all, the manifest's too.
            #expect(!FileManager.default.fileExists(atPath: prefix.path), "left behind: \(entries(under: prefix))")
        }
    }

    /// Issue 28: uninstall removed every `score.*.1`, so a person's own `score.mine.1` went with sposure's pages.
    @Test func uninstallKeepsAPersonsOwnManPageNamedLikeATool() throws {
        guard let tools = try builtTools() else { return }
        try withTemporaryDirectory { folder in
            let prefix = folder.appendingPathComponent("prefix")
            let pages = prefix.appendingPathComponent("share/man/man1")
            try FileManager.default.createDirectory(at: pages, withIntermediateDirectories: true)
            let mine = pages.appendingPathComponent("score.mine.1")
            try ".TH SCORE.MINE 1\n".write(to: mine, atomically: false, encoding: .utf8)

            let install = try makeInstall(tools, prefix: prefix, in: folder)
            try #require(install.status == 0, "\(install.out)\n\(install.err)")
            #expect(files(under: prefix).contains("share/man/man1/score.history.1"))
            let uninstall = try makeUninstall(prefix: prefix, in: folder)
            #expect(uninstall.status == 0, "\(uninstall.err)")
            #expect(files(under: prefix) == ["share/man/man1/score.mine.1"])
            #expect(try String(contentsOf: mine, encoding: .utf8) == ".TH SCORE.MINE 1\n")
        }
    }

    /// Issue 28: install replaced another program at PREFIX/bin/score without a word, and uninstall then
    /// deleted it. Now install refuses, naming it, and writes nothing; FORCE=1 replaces it.
    @Test func installRefusesToReplaceAnotherProgramUnlessForced() throws {
        guard let tools = try builtTools() else { return }
        try withTemporaryDirectory { folder in
            let prefix = folder.appendingPathComponent("prefix")
            let theirs = prefix.appendingPathComponent("bin/score")
            try FileManager.default.createDirectory(at: theirs.deletingLastPathComponent(), withIntermediateDirectories: true)
            let script = "#!/bin/sh\necho mine\n"
            try script.write(to: theirs, atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: theirs.path)

            let refused = try makeInstall(tools, prefix: prefix, in: folder)
            #expect(refused.status != 0)
            #expect(refused.err.contains(theirs.path) && refused.err.contains("FORCE=1"), "\(refused.out)\n\(refused.err)")
            #expect(entries(under: prefix) == ["bin", "bin/score"], "written despite the refusal")
            #expect(try String(contentsOf: theirs, encoding: .utf8) == script)

            // Nothing of sposure's there: uninstall leaves the person's program.
            let nothing = try makeUninstall(prefix: prefix, in: folder)
            #expect(nothing.status == 0, "\(nothing.err)")
            #expect(try String(contentsOf: theirs, encoding: .utf8) == script)

            let forced = try makeInstall(tools, prefix: prefix, in: folder, ["FORCE=1"])
            try #require(forced.status == 0, "\(forced.out)\n\(forced.err)")
            let installed = try run([theirs.path, "--version"], environment: Self.system(folder))
            let built = try run([tools.built.appendingPathComponent("score").path, "--version"], environment: Self.system(folder))
            #expect(installed.status == 0 && !installed.out.isEmpty && installed.out == built.out, "\(installed.out) \(installed.err)")
            let uninstall = try makeUninstall(prefix: prefix, in: folder)
            #expect(uninstall.status == 0, "\(uninstall.err)")
            #expect(files(under: prefix).isEmpty, "left behind: \(files(under: prefix))")
        }
    }

    /// Issue 28: uninstall removed the empty bin/ and share/man/man1/ a person had before install.
    /// Now it removes only the folders install made.
    @Test func uninstallKeepsTheFoldersInstallDidNotMake() throws {
        guard let tools = try builtTools() else { return }
        try withTemporaryDirectory { folder in
            let prefix = folder.appendingPathComponent("prefix")
            for kept in ["bin", "share/man/man1"] {
                try FileManager.default.createDirectory(at: prefix.appendingPathComponent(kept), withIntermediateDirectories: true)
            }
            let install = try makeInstall(tools, prefix: prefix, in: folder)
            try #require(install.status == 0, "\(install.out)\n\(install.err)")
            let installed = files(under: prefix)
            #expect(installed.contains("bin/score") && installed.contains("share/zsh/site-functions/_score")
                        && installed.contains("share/sposure/installed.txt"), "\(installed)")

            let uninstall = try makeUninstall(prefix: prefix, in: folder)
            #expect(uninstall.status == 0, "\(uninstall.err)")
            #expect(entries(under: prefix) == ["bin", "share", "share/man", "share/man/man1"])
        }
    }

    /// Issue 28: with a space in PREFIX, install split it in two and failed part-way, and uninstall
    /// deleted a file named after its first word (and the emptied folder holding it).
    @Test func installsAndUninstallsAPrefixWithASpace() throws {
        guard let tools = try builtTools() else { return }
        try withTemporaryDirectory { folder in
            let mine = folder.appendingPathComponent("my")
            try "mine\n".write(to: mine, atomically: false, encoding: .utf8)
            let prefix = folder.appendingPathComponent("my prefix")

            let install = try makeInstall(tools, prefix: prefix, in: folder)
            try #require(install.status == 0, "\(install.out)\n\(install.err)")
            let installed = files(under: prefix)
            for tool in Self.tools {
                #expect(installed.contains("bin/\(tool)") && installed.contains("share/man/man1/\(tool).1"), "\(installed)")
            }
            let version = try run([prefix.path + "/bin/score", "--version"], environment: Self.system(folder))
            #expect(version.status == 0, "\(version.err)")

            let uninstall = try makeUninstall(prefix: prefix, in: folder)
            #expect(uninstall.status == 0, "\(uninstall.err)")
            #expect(!FileManager.default.fileExists(atPath: prefix.path), "left behind: \(entries(under: prefix))")
            #expect(try String(contentsOf: mine, encoding: .utf8) == "mine\n")
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("my") }.sorted() == ["my"])
        }
    }
}
