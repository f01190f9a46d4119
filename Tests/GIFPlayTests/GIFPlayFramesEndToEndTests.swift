// End-to-end tests of the built `gif-play frames`, run over real pipes in a
// fresh temporary folder, on GIFs made here (no corpus needed).

import Foundation
import SposureKit
import Testing
import TestSupport
@testable import GIFEngine

/// A record printed by the binary, with its raw field values.
private func record(_ line: String) throws -> JSONRecord {
    try JSONRecord.parse(line)
}

/// Three 4×3 frames (red, green, blue), looping forever, with a comment.
/// Black, white, red, green, blue.
private let palette: [[UInt8]] = [[0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255]]

private func threeFrames() -> GIFBuilder {
    var gif = GIFBuilder(width: 4, height: 3, colors: palette)
    gif.loop(0)
    gif.comment(Array("three".utf8))
    for (color, delay) in [(2, 10), (3, 0), (4, 25)] as [(UInt8, Int)] {
        gif.control(delay: delay == 0 ? 1 : delay)
        gif.image(width: 4, height: 3, pixels: [UInt8](repeating: color, count: 12))
    }
    gif.trailer()
    return gif
}

@Suite(.serialized) struct GIFPlayFramesEndToEndTests {
    func run(_ arguments: [String], in folder: URL) throws -> StageProcess.Result {
        try StageProcess(
            "gif-play", arguments: arguments, unsetEnvironment: ["NO_COLOR"], currentDirectory: folder
        ).wait(timeout: 120)
    }

    func write(_ gif: GIFBuilder, _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(gif.bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func printsOneRecordPerFrameThenASummary() throws {
        try withTemporaryDirectory { folder in
            let path = try write(threeFrames(), "three.gif", in: folder)
            let result = try run(["frames", path], in: folder)
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
            #expect(result.stdoutEndsWithNewline)
            try #require(result.stdoutLines.count == 4)
            let expected = GIFDecoder.decodeAll(bytes: threeFrames().bytes).frames
            for (index, line) in result.stdoutLines.prefix(3).enumerated() {
                let frame = try record(line)
                #expect(frame.keys == ["kind", "index", "delay_ms", "width", "height", "sha256"])
                #expect(frame.kind == "frame")
                #expect(frame.int("index") == index)
                #expect(frame.int("width") == 4)
                #expect(frame.int("height") == 3)
                #expect(frame.string("sha256") == expected[index].sha256)
            }
            #expect(result.stdoutLines.prefix(3).compactMap { try? record($0).int("delay_ms") } == [100, 100, 250])
            let summary = try record(result.stdoutLines[3])
            #expect(summary.text == #"{"kind":"summary","file":"\#(path)","frames":3,"width":4,"height":3,"loop_count":0,"duration_ms":450,"comment":"three"}"#)
        }
    }

    @Test func writesFramesToFilesAndScalesThem() throws {
        try withTemporaryDirectory { folder in
            let path = try write(threeFrames(), "three.gif", in: folder)
            let result = try run(["frames", path, "--out", "out/frames", "--format", "ppm", "--size", "2x1"], in: folder)
            #expect(result.exitCode == 0)
            try #require(result.stdoutLines.count == 4)
            let first = try record(result.stdoutLines[0])
            // 4×3 into 2×1 half-block cells (2×2 pixels): 2×2 (rounded from 2×1.5, then the room's height).
            #expect(first.int("width") == 2)
            #expect(first.int("height") == 2)
            #expect(first.string("path") == "out/frames/frame-0000.ppm")
            let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("out/frames/frame-0000.ppm")))
            #expect(bytes == Array("P6\n2 2\n255\n".utf8) + [UInt8](repeating: 0, count: 12).enumerated().map { $0.offset % 3 == 0 ? 255 : 0 })
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("out/frames").path).sorted()
            #expect(files == ["frame-0000.ppm", "frame-0001.ppm", "frame-0002.ppm"])
        }
    }

    @Test func aFileCutShortGivesItsFramesThenAnErrorRecordAndStatusOne() throws {
        try withTemporaryDirectory { folder in
            var cut = GIFBuilder(width: 4, height: 3, colors: palette)
            cut.raw(Array(threeFrames().bytes.dropFirst(cut.bytes.count).dropLast(5)))
            let path = try write(cut, "cut.gif", in: folder)
            let result = try run(["frames", path, "--out", "frames", "--format", "rgba"], in: folder)
            #expect(result.exitCode == 1)
            try #require(result.stdoutLines.count == 3)
            #expect(try record(result.stdoutLines[0]).kind == "frame")
            #expect(try record(result.stdoutLines[1]).kind == "frame")
            let error = try record(result.stdoutLines[2])
            #expect(error.keys == ["kind", "stage", "code", "error", "file", "frames"])
            #expect(error.string("code") == "decode_failed")
            #expect(error.string("stage") == "gif-play")
            #expect(error.int("frames") == 2)
            #expect(error.string("error")?.contains("image 3") == true)
            #expect(result.stderr.hasPrefix("gif-play: \(path): the file ends inside image 3's data"))
            let rgba = [UInt8](try Data(contentsOf: folder.appendingPathComponent("frames/frame-0001.rgba")))
            #expect(rgba == [UInt8](repeating: 0, count: 12 * 4).enumerated().map { [0, 255, 0, 255][$0.offset % 4] })
        }
    }

    @Test func aMissingFileOrANonGIFIsAnErrorRecord() throws {
        try withTemporaryDirectory { folder in
            let missing = try run(["frames", "nope.gif", "--quiet"], in: folder)
            #expect(missing.exitCode == 1)
            #expect(missing.stderr == "")
            try #require(missing.stdoutLines.count == 1)
            #expect(try record(missing.stdoutLines[0]).string("code") == "not_found")

            try Data("<html>not a gif</html>".utf8).write(to: folder.appendingPathComponent("page.gif"))
            let page = try run(["frames", "page.gif"], in: folder)
            #expect(page.exitCode == 1)
            #expect(try record(page.stdoutLines.first ?? "").string("code") == "not_gif")
            #expect(page.stderr.contains("not a GIF"))
        }
    }

    @Test func limitsComeFromTheCommandLine() throws {
        try withTemporaryDirectory { folder in
            let path = try write(threeFrames(), "three.gif", in: folder)
            let canvas = try run(["frames", path, "--max-pixels", "3x3"], in: folder)
            #expect(canvas.exitCode == 1)
            #expect(try record(canvas.stdoutLines.first ?? "").string("code") == "too_large")
            // Each frame costs 12 pixels and each image 12: two frames fit in 50.
            let budget = try run(["frames", path, "--max-total-pixels", "50"], in: folder)
            #expect(budget.exitCode == 1)
            #expect(budget.stdoutLines.count == 3)
            let raw = try run(["frames", path, "--min-delay", "0", "--every-image"], in: folder)
            #expect(raw.stdoutLines.prefix(3).compactMap { try? record($0).int("delay_ms") } == [100, 10, 250])
        }
    }

    @Test func usageErrorsExitWith64() throws {
        try withTemporaryDirectory { folder in
            for arguments in [["frames"], ["frames", "a.gif", "--size", "80"], ["frames", "a.gif", "--format", "png"],
                              ["frames", "a.gif", "--background", "black"], ["frames", "a.gif", "--cell", "0x2"]] {
                let result = try run(arguments, in: folder)
                #expect(result.exitCode == 64, "\(arguments)")
                #expect(result.stdout.isEmpty, "\(arguments)")
            }
        }
    }

    @Test func helpListsTheFramesSubcommandAndItsExitCodes() throws {
        try withTemporaryDirectory { folder in
            let top = try run(["--help"], in: folder)
            #expect(top.exitCode == 0)
            #expect(top.stdoutLines.contains { $0.contains("frames") })
            let frames = try run(["frames", "--help"], in: folder)
            #expect(frames.exitCode == 0)
            #expect(frames.stdoutLines.contains { $0.contains("Exit status:") })
        }
    }

    @Test func aClosedStdoutIsANormalEnd() throws {
        try withTemporaryDirectory { folder in
            var gif = GIFBuilder(width: 2, height: 2, colors: palette)
            for index in 0..<3000 {
                gif.control(delay: 2)
                gif.image(width: 1, height: 1, pixels: [UInt8(index % 5)])
            }
            gif.trailer()
            let path = try write(gif, "long.gif", in: folder)
            let result = try StageProcess("gif-play", arguments: ["frames", path], closeStdoutAfterLines: 2).wait(timeout: 120)
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
        }
    }
}
