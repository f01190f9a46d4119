// A still that comes closer (issue 31 item 6): the zoom's steps and crops,
// and a picture of one frame decoded into those steps as frames.

import Foundation
import Testing
import GIFEngine
import SposureKit
import TestSupport
@testable import PlayerKit

@Suite struct ApproachZoomTests {
    @Test func theStepsGoSmoothlyFromTheWholePictureToItsMiddleTwoThirds() {
        let zoom = ApproachZoom()
        #expect(zoom.steps >= 10)
        let zooms = (0..<zoom.steps).map { zoom.zoom(step: $0) }
        #expect(zooms.first == 1.0)
        #expect(zip(zooms, zooms.dropFirst()).allSatisfy { $0 < $1 }, "every step comes closer")
        let last = zoom.crop(width: 300, height: 200, step: zoom.steps - 1)
        #expect(last.width == 200 && abs(last.height - 133.333) < 0.001 && last.x == 50 && abs(last.y - 33.333) < 0.001)
        #expect((0..<zoom.steps).map { zoom.delay(step: $0) }.reduce(0, +) == zoom.displayMs)
    }

    @Test func theLastStepShowsTheMiddleScaledToTheWholeArea() {
        // A 12 × 12 picture, red 20 × its column: at 1.5× the 12 columns show
        // the middle 8 (from edge 2 to edge 10), sampled at their centres.
        var rgba: [UInt8] = []
        for _ in 0..<12 { for x in 0..<12 { rgba += [UInt8(x * 20), 0, 0, 255] } }
        let zoom = ApproachZoom()
        let first = zoom.frame(rgba, width: 12, height: 12, step: 0)
        #expect(first == rgba, "step 0 is the picture as decoded")
        let last = zoom.frame(rgba, width: 12, height: 12, step: zoom.steps - 1)
        #expect(last.count == rgba.count)
        #expect(last[0] == 37 && last[11 * 4] == 183, "columns 1.83 and 9.17: \(last[0]) \(last[11 * 4])")
    }

    @Test func aPictureOfOneFrameBecomesTheZoomStepsAndOffItStaysOneFrame() throws {
        try withTemporaryDirectory { folder in
            let path = try PlayGIF.write(PlayGIF.animated(width: 32, height: 32, delays: [10]), "still.gif", in: folder)
            let record = JSONRecord()
            record.set("kind", "image")
            record.set("path", path)
            let layout = ScreenLayout(columns: 40, rows: 20, cell: .halfBlock, background: .black)
            let (off, _) = try PreparedGIF.begin(record: record, path: path, layout: layout, firstMs: 300)
            #expect(off.hasFrame(0) && !off.hasFrame(1) && !off.approaching)
            let (on, rest) = try PreparedGIF.begin(record: record, path: path, layout: layout, firstMs: 300, approach: ApproachZoom())
            #expect(on.approaching && !on.isStill)
            let decoding = try #require(rest, "the steps are made as the look-ahead asks, not all at once")
            #expect(on.frames.decoded < 12)
            Thread { decoding.finishOnDemand() }.start()
            #expect(on.hasFrame(11) && !on.hasFrame(12))
            let pictures = (0..<12).map { on.picture($0).rgb }
            #expect(Set(pictures).count == 12, "12 distinct steps")
            #expect(pictures[0] == off.picture(0).rgb)
            #expect((0..<12).map(on.delay).reduce(0, +) == 5000)
        }
    }
}
