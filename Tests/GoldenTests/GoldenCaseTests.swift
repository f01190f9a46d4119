// End-to-end cases as data (issue 30): each folder Tests/Fixtures/TOOL/CASE/
// that holds an `args` file is one run of the built TOOL, checked byte for
// byte. `UPDATE_GOLDEN=1 swift test --filter GoldenCaseTests` writes what the
// tools give into the expected files instead (the after/ files a case lists
// too: an empty one is filled); review the diff.
//
//   args         one argument a line (none when empty)
//   before       the arguments of an earlier run of the same tool, with the
//                same stdin and environment, in the same folder, unchecked:
//                what a first run leaves (a cache, a remembered failure) for
//                the run the case checks
//   stdin        fed on stdin (none when missing)
//   env          KEY=VALUE lines set on top of the case's own environment
//   files/       copied into the case's folder, which is the working
//                directory (TOOL/files/ first, shared by every case of TOOL);
//                `{tmp}` in a text file is replaced (an absolute path)
//   fifo         paths (one a line, relative to the case's folder) made
//                FIFOs before the run: a file that would block whoever opens it
//   stdout       expected stdout, exactly
//   exit         expected exit status (0 when missing)
//   stderr       expected stderr, exactly; not checked when missing
//   mask         regular expressions, one a line, whose matches in stdout,
//                stderr and the text files of after/ read `{mask}`: what a
//                run cannot give the same twice (fetch-images' "ms", the time
//                a record took)
//   after/       files expected in the case's folder after the run, exactly
//                (a file that is not UTF-8 is compared byte for byte)
//   absent       paths (one a line, relative to the case's folder) that must
//                not exist after the run: a run that must keep no history,
//                or record nothing, says so here; `FOLDER/*`: FOLDER holds no
//                file (it may be there, empty)
//
// A case may link (a relative symbolic link) its stdin or an after/ file to
// another case's file: score reading the events a gif-play case pins, and
// writing what a later case holds.
//
// `{tmp}` in args, env and stdin is the case's folder, and the folder's path
// in stdout and stderr is written `{tmp}`. A case may also run against a real
// HTTP server (`server/`, `fake`, `requests`, `{server}`, `{key}`): see
// GoldenServer.swift. Every case runs with its own data,
// cache and config folders ({tmp}/data, {tmp}/cache, {tmp}/config), HOME and
// TMPDIR set to {tmp}, TZ=UTC, NO_COLOR=1, no API keys and no COLUMNS, so
// nothing of the machine running it shows through.

import Foundation
import Testing
import TestSupport

/// One case folder.
struct GoldenCase: CustomTestStringConvertible, Sendable {
    let tool: String
    let name: String
    let folder: URL

    var testDescription: String { "\(tool)/\(name)" }

    /// `Tests/Fixtures`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    /// The tools whose cases are run.
    static let tools = ["giphy-pages", "fetch-images", "gif-play", "score", "sposure"]

    /// Every case folder, by tool and name.
    static let all: [GoldenCase] = tools.flatMap { tool -> [GoldenCase] in
        let toolFolder = root.appendingPathComponent(tool)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: toolFolder.path)) ?? []
        return names.sorted().compactMap { name in
            let folder = toolFolder.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("args").path) else { return nil }
            return GoldenCase(tool: tool, name: name, folder: folder)
        }
    }

    func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    func text(_ name: String) -> String? {
        (try? Data(contentsOf: file(name))).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The lines of `name`, `{tmp}` (and the other `{…}` of `values`) replaced; a missing file is none.
    func lines(_ name: String, tmp: String, values: [String: String] = [:]) -> [String] {
        guard let text = text(name) else { return [] }
        var lines = GoldenCase.fill(text, tmp: tmp, values: values).components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    /// `text` with `{tmp}` and the placeholders of `values` replaced.
    static func fill(_ text: String, tmp: String, values: [String: String]) -> String {
        values.reduce(text.replacingOccurrences(of: "{tmp}", with: tmp)) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }

    /// `bytes` with `{tmp}` and the placeholders of `values` replaced, byte for
    /// byte: a stdin that is not UTF-8 reaches the tool as it is.
    static func fill(_ bytes: [UInt8], tmp: String, values: [String: String]) -> [UInt8] {
        var out = bytes
        for (placeholder, value) in [("{tmp}", tmp)] + values.map({ ($0.key, $0.value) }) {
            let from = Array(placeholder.utf8), to = Array(value.utf8)
            var result: [UInt8] = []
            var index = 0
            while index < out.count {
                if out[index] == from[0], index + from.count <= out.count, Array(out[index..<index + from.count]) == from {
                    result += to
                    index += from.count
                } else {
                    result.append(out[index])
                    index += 1
                }
            }
            out = result
        }
        return out
    }

    /// Copies what `from` holds into `into`.
    static func copyContents(of from: URL, into: URL) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: from.path) else { return }
        for name in names {
            let target = into.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
            try FileManager.default.copyItem(at: from.appendingPathComponent(name), to: target)
        }
    }

    /// Every regular file under `folder`, relative to it.
    static func files(under folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder) && !isFolder.boolValue
        }.sorted()
    }
}

@Suite struct GoldenCaseTests {
    static let updating = ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1"

    @Test(arguments: GoldenCase.all)
    func theToolGivesWhatTheCaseSays(_ golden: GoldenCase) throws {
        try withTemporaryDirectory { work in
            let tmp = work.path
            try GoldenCase.copyContents(of: GoldenCase.root.appendingPathComponent(golden.tool + "/files"), into: work)
            try GoldenCase.copyContents(of: golden.file("files"), into: work)
            for path in GoldenCase.files(under: work) {
                let file = work.appendingPathComponent(path)
                guard let text = try? String(contentsOf: file, encoding: .utf8), text.contains("{tmp}") else { continue }
                try Data(text.replacingOccurrences(of: "{tmp}", with: tmp).utf8).write(to: file)
            }
            for path in golden.lines("fifo", tmp: tmp) where !path.isEmpty {
                let fifo = work.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: fifo.deletingLastPathComponent(), withIntermediateDirectories: true)
                try #require(mkfifo(fifo.path, 0o644) == 0, "\(golden.testDescription)/fifo: \(path)")
            }
            let server = try GoldenServer.start(for: golden)
            defer { server?.stop() }
            var values: [String: String] = [:]
            if let server {
                values["{server}"] = server.baseURL
                if let key = server.key { values["{key}"] = key }
            }
            var environment = ["SPOSURE_DATA": tmp + "/data", "SPOSURE_CACHE": tmp + "/cache", "SPOSURE_CONFIG": tmp + "/config",
                               "HOME": tmp, "TMPDIR": tmp, "TZ": "UTC", "NO_COLOR": "1",
                               "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"]
            for line in golden.lines("env", tmp: tmp, values: values) where !line.isEmpty {
                guard let equals = line.firstIndex(of: "=") else {
                    Issue.record("\(golden.testDescription)/env: \(line) is not KEY=VALUE")
                    return
                }
                environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
            let unset = ["GIPHY_API_KEY", "KLIPY_API_KEY", "GIPHY_API_URL", "KLIPY_API_URL", "COMMONS_API_URL", "SPOSURE_CONTACT", "XDG_DATA_HOME", "XDG_CACHE_HOME",
                         "XDG_CONFIG_HOME", "COLORTERM", "TMUX", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy",
                         // --help wraps at $COLUMNS when it is set (ArgumentParser), else at 80.
                         "COLUMNS", "LINES"]
                .filter { environment[$0] == nil }
            let stdin = (try? Data(contentsOf: golden.file("stdin"))).map { GoldenCase.fill(Array($0), tmp: tmp, values: values) } ?? []
            if golden.text("before") != nil {
                let earlier = try StageProcess(golden.tool, arguments: golden.lines("before", tmp: tmp, values: values), environment: environment,
                                               unsetEnvironment: unset, stdin: stdin, currentDirectory: work).wait(timeout: 120)
                #expect(!earlier.timedOut, "\(golden.testDescription): the run of `before` did not finish")
            }
            let result = try StageProcess(golden.tool, arguments: golden.lines("args", tmp: tmp, values: values), environment: environment,
                                          unsetEnvironment: unset, stdin: stdin, currentDirectory: work).wait(timeout: 120)
            #expect(!result.timedOut, "\(golden.testDescription) did not finish")
            func masked(_ text: String) -> String {
                // The folder as the tools may name it: as given, and as the system resolves it.
                let resolved = (try? FileManager.default.destinationOfSymbolicLink(atPath: tmp)) ?? tmp
                var text = text.replacingOccurrences(of: tmp, with: "{tmp}").replacingOccurrences(of: resolved, with: "{tmp}")
                if let server {
                    // As a URL, and as the host and port a message may name.
                    text = text.replacingOccurrences(of: server.baseURL, with: "{server}")
                        .replacingOccurrences(of: server.baseURL.dropFirst("http://".count), with: "{server}")
                }
                return text
            }
            var masks: [Regex<AnyRegexOutput>] = []
            for pattern in golden.lines("mask", tmp: tmp) where !pattern.isEmpty {
                guard let regex = try? Regex(pattern) else {
                    Issue.record("\(golden.testDescription)/mask: \(pattern) is not a regular expression")
                    return
                }
                masks.append(regex)
            }
            func maskedOutput(_ text: String) -> String {
                masks.reduce(masked(text)) { $0.replacing($1, with: "{mask}") }
            }
            let stdout = maskedOutput(String(decoding: result.stdout, as: UTF8.self))
            let stderr = maskedOutput(result.stderr)
            let status = result.exited ? "\(result.status)" : "signal \(result.status)"
            // The tools never show a key (the fake's, or one of 8 characters or more the case
            // gives): not on stdout, stderr, nor in any file the run leaves, even JSON-escaped.
            let keys = ([server?.key] + ["GIPHY_API_KEY", "KLIPY_API_KEY"].map { environment[$0] }).compactMap { $0 }.filter { $0.count >= 8 }
            for key in Set(keys) {
                let escaped = "\\u00" + String(key.utf8.first ?? 0, radix: 16) + key.dropFirst()
                #expect(!stdout.contains(key), "\(golden.testDescription): the API key on stdout")
                #expect(!stderr.contains(key), "\(golden.testDescription): the API key on stderr")
                for path in GoldenCase.files(under: work) {
                    let made = (try? Data(contentsOf: work.appendingPathComponent(path))).map { String(decoding: $0, as: UTF8.self) } ?? ""
                    #expect(!made.contains(key) && !made.contains(escaped), "\(golden.testDescription): the API key in \(path)")
                }
            }
            let requests = server?.requestLines(sorted: true)
            let ordered = server?.requestLines(sorted: false)
            if Self.updating {
                if let requests, golden.text("requests") != nil { try Data(requests.utf8).write(to: golden.file("requests")) }
                if let ordered, golden.text("requests.ordered") != nil { try Data(ordered.utf8).write(to: golden.file("requests.ordered")) }
                try Data(stdout.utf8).write(to: golden.file("stdout"))
                if status == "0" {
                    try? FileManager.default.removeItem(at: golden.file("exit"))
                } else {
                    try Data((status + "\n").utf8).write(to: golden.file("exit"))
                }
                if golden.text("stderr") != nil { try Data(stderr.utf8).write(to: golden.file("stderr")) }
                for path in GoldenCase.files(under: golden.file("after")) {
                    guard let made = try? Data(contentsOf: work.appendingPathComponent(path)) else { continue }
                    let text = String(data: made, encoding: .utf8).map { Data(maskedOutput($0).utf8) }
                    try (text ?? made).write(to: golden.file("after").appendingPathComponent(path))
                }
                return
            }
            #expect(stdout == golden.text("stdout") ?? "", "\(golden.testDescription): stdout")
            #expect(status == (golden.text("exit")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "0"),
                    "\(golden.testDescription): exit; stderr: \(stderr.prefix(400))")
            if let expected = golden.text("stderr") { #expect(stderr == expected, "\(golden.testDescription): stderr") }
            if let expected = golden.text("requests") { #expect(requests == expected, "\(golden.testDescription): requests") }
            if let expected = golden.text("requests.ordered") { #expect(ordered == expected, "\(golden.testDescription): requests.ordered") }
            let after = golden.file("after")
            for path in GoldenCase.files(under: after) {
                let made = try? Data(contentsOf: work.appendingPathComponent(path))
                let expected = try Data(contentsOf: after.appendingPathComponent(path))
                if let text = String(data: expected, encoding: .utf8) {
                    #expect(made.map { maskedOutput(String(decoding: $0, as: UTF8.self)) } == text, "\(golden.testDescription): \(path) after the run")
                } else {
                    // Not text (the frames gif-play frames writes): byte for byte, no {tmp}.
                    #expect(made == expected, "\(golden.testDescription): \(path) after the run, byte for byte")
                }
            }
            for path in golden.lines("absent", tmp: tmp) where path.hasSuffix("/*") {
                let folder = work.appendingPathComponent(String(path.dropLast(2)))
                #expect(GoldenCase.files(under: folder).isEmpty, "\(golden.testDescription): \(path) should hold no file after the run")
            }
            for path in golden.lines("absent", tmp: tmp) where !path.isEmpty && !path.hasSuffix("/*") {
                #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent(path).path),
                        "\(golden.testDescription): \(path) should not exist after the run")
            }
        }
    }

    /// A case folder is read as the runner reads it: a typo (`stdot`) would
    /// leave a case that checks less than it seems to.
    @Test func everyCaseFolderHoldsOnlyWhatTheRunnerReads() {
        let known: Set<String> = ["args", "before", "stdin", "env", "files", "fifo", "stdout", "exit", "stderr", "after", "absent", "mask", "README",
                                  "server", "fake", "requests", "requests.ordered"]
        for golden in GoldenCase.all {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: golden.folder.path)) ?? []
            #expect(Set(names).subtracting(known).isEmpty, "\(golden.testDescription): \(Set(names).subtracting(known).sorted())")
            #expect(names.contains("stdout"), "\(golden.testDescription): no stdout file (UPDATE_GOLDEN=1 writes it)")
        }
    }
}
