import Foundation
import Testing
@testable import GIFEngine
@testable import PlayerKit
import SposureKit

@Suite struct FrameExporterTests {
    let frame = Frame(index: 12, width: 2, height: 1, rgba: [255, 0, 0, 255, 0, 255, 0, 0],
                      delayMs: 100, delayCentiseconds: 0, images: 0..<1)

    @Test func pamKeepsAlphaBehindAHeader() {
        let header = Array("P7\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        #expect(FrameFormat.pam.encode(frame) == header + frame.rgba)
    }

    @Test func ppmLaysTransparencyOverTheBackground() {
        let header = Array("P6\n2 1\n255\n".utf8)
        #expect(FrameFormat.ppm.encode(frame) == header + [255, 0, 0, 0, 0, 0])
        #expect(FrameFormat.ppm.encode(frame, background: RGBColor(red: 1, green: 2, blue: 3)) == header + [255, 0, 0, 1, 2, 3])
    }

    @Test func rgbaIsTheBytesAsTheyAre() {
        #expect(FrameFormat.rgba.encode(frame) == frame.rgba)
    }

    @Test func hashesTheRGBABytes() {
        let empty = Frame(index: 0, width: 0, height: 0, rgba: [], delayMs: 0, delayCentiseconds: 0, images: 0..<1)
        #expect(empty.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func writesNumberedFilesIntoAFolderItMakes() throws {
        let root = NSTemporaryDirectory() + "/exporter-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let exporter = FrameExporter(directory: root + "/a/b", format: .pam,
                                     scaler: Scaler(sourceWidth: 2, sourceHeight: 1, width: 1, height: 1, background: nil))
        try exporter.prepare()
        let done = try exporter.export(frame)
        #expect(done.path == root + "/a/b/frame-0012.pam")
        #expect(done.frame.width == 1)
        #expect(done.frame.rgba == [255, 0, 0, 128])
        #expect(done.sha256 == done.frame.sha256)
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: root + "/a/b/frame-0012.pam")))
        #expect(written == FrameFormat.pam.encode(done.frame))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a/b") == ["frame-0012.pam"])
        #expect(FrameExporter(directory: "x", format: .ppm).path(forFrame: 123456) == "x/frame-123456.ppm")
        #expect(FrameExporter().path(forFrame: 1) == nil)
    }

    @Test func saysWhyAFolderCannotBeMade() throws {
        let file = NSTemporaryDirectory() + "/exporter-\(UUID().uuidString)"
        try Data([1]).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(throws: FileError("create", path: file, code: ENOTDIR)) { try FrameExporter(directory: file + "/sub").prepare() }
    }
}
