// `gif-play frames` into a stdout that closes, which a case folder cannot
// hold; its runs over GIFs are cases in Tests/Fixtures/gif-play/frames-*.

import Foundation
import Testing
import TestSupport

@Suite struct GIFPlayFramesEndToEndTests {
    @Test func aClosedStdoutIsANormalEnd() throws {
        try withTemporaryDirectory { folder in
            var gif = GIFBuilder(width: 2, height: 2, colors: [[0, 0, 0], [255, 255, 255], [255, 0, 0], [0, 255, 0], [0, 0, 255]])
            for index in 0..<3000 {
                gif.control(delay: 2)
                gif.image(width: 1, height: 1, pixels: [UInt8(index % 5)])
            }
            gif.trailer()
            let path = folder.appendingPathComponent("long.gif").path
            try Data(gif.bytes).write(to: URL(fileURLWithPath: path))
            let result = try StageProcess("gif-play", arguments: ["frames", path], closeStdoutAfterLines: 2).wait(timeout: 120)
            #expect(result.exitCode == 0)
            #expect(result.stderr == "")
        }
    }
}
