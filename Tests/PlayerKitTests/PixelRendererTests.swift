import FoundationEssentials
import GIFEngine
import SposureKit
import TestSupport
@testable import PlayerKit
import Testing

/// A photograph-like frame: smooth gradients with a little noise, and a
/// square that moves with `frame`.
func photoFrame(width: Int, height: Int, frame: Int, gif: UInt64 = 7, span: CellSpan? = nil) -> CellPicture {
    var rgb = [UInt8](repeating: 0, count: width * height * 3)
    var seed: UInt32 = 12345
    for y in 0..<height {
        for x in 0..<width {
            seed = seed &* 1_103_515_245 &+ 12345
            let noise = Int(seed >> 28) - 8
            let at = (y * width + x) * 3
            let inSquare = (x - frame * 2) >= 4 && (x - frame * 2) < 12 && y >= 4 && y < 12
            rgb[at] = UInt8(clamping: inSquare ? 250 : 40 + x * 180 / max(1, width) + noise)
            rgb[at + 1] = UInt8(clamping: inSquare ? 30 : 60 + y * 150 / max(1, height) + noise)
            rgb[at + 2] = UInt8(clamping: inSquare ? 30 : 200 - (x + y) * 120 / max(1, width + height) + noise)
        }
    }
    var picture = CellPicture(width: width, height: height, rgb: rgb, span: span)
    picture.tag = FrameTag(gif: gif, frame: frame)
    return picture
}

@Suite struct KittyRendererTests {
    @Test func sendsEachFrameOnceThenShowsItBySwitchingFrames() throws {
        var renderer = KittyRenderer()
        var model = KittyModel()
        let span = CellSpan(columns: 10, rows: 4)
        let frames = (0..<3).map { photoFrame(width: 40, height: 24, frame: $0, span: span) }
        var firstLoop = 0, secondLoop = 0
        for loop in 0..<2 {
            for picture in frames {
                var out: [UInt8] = []
                renderer.render(picture, row: 2, col: 3, into: &out)
                let uploads = renderer.takeUploads()
                try model.apply(uploads + out)
                let id = try #require(model.images.keys.first)
                let shown = model.shown(id) == picture.rgb
                #expect(shown, "frame \(picture.tag!.frame) of loop \(loop) is what the terminal shows")
                if loop == 0 { firstLoop += uploads.count + out.count } else { secondLoop += uploads.count + out.count }
                if loop == 1 {
                    #expect(uploads.isEmpty, "a later loop sends no pixels")
                    #expect(out.count < 40, "a later loop costs a frame switch: \(String(decoding: out, as: UTF8.self))")
                }
            }
        }
        #expect(model.images.count == 1)
        #expect(model.images.values.first?.frames.count == 3)
        #expect(model.placed.values.first == "c=10,r=4")
        #expect(secondLoop * 50 < firstLoop)
        // Frames after the first carry only the changed rectangle, unchanged pixels transparent.
        let frameCommands = model.commands.filter { $0.keys["a"] == "f" }
        #expect(!frameCommands.isEmpty)
        for command in frameCommands {
            #expect(command.keys["o"] == "z" && command.keys["f"] == "32")
            #expect(Int(command.keys["s"]!)! < 40, "the square's rectangle, not the whole frame")
        }
    }

    @Test func keepsEveryCommandWithinOneEscapeCodeOf4096Bytes() throws {
        var renderer = KittyRenderer()
        var model = KittyModel()
        let frames = (0..<2).map { frame -> CellPicture in
            var picture = photoFrame(width: 300, height: 200, frame: frame)
            // Every pixel changes, and noise keeps it from compressing well.
            var seed = UInt32(frame + 1)
            for i in picture.rgb.indices { seed = seed &* 1_664_525 &+ 1_013_904_223; picture.rgb[i] = UInt8(seed >> 24) }
            return picture
        }
        for picture in frames {
            var out: [UInt8] = []
            renderer.render(picture, row: 1, col: 1, into: &out)
            try model.apply(renderer.takeUploads() + out)
            let id = try #require(model.images.keys.first)
            let shown = model.shown(id) == picture.rgb
            #expect(shown)
        }
        let frameCommands = model.commands.filter { $0.keys["a"] == "f" }
        #expect(frameCommands.count > 1, "a big frame goes in bands")
        #expect(frameCommands.allSatisfy { $0.payload <= 4096 && $0.keys["m"] == nil })
        #expect(frameCommands.dropFirst().allSatisfy { $0.keys["r"] == frameCommands[0].keys["r"] ?? "2" })
    }

    @Test func aGIFShownAgainAndAClearedScreenCostOnlyAPlacement() throws {
        var renderer = KittyRenderer()
        var model = KittyModel()
        func draw(_ picture: CellPicture) throws -> (uploads: Int, out: String) {
            var out: [UInt8] = []
            renderer.render(picture, row: 1, col: 1, into: &out)
            let uploads = renderer.takeUploads()
            try model.apply(uploads + out)
            return (uploads.count, String(decoding: out, as: UTF8.self))
        }
        let first = photoFrame(width: 20, height: 12, frame: 0, gif: 1), second = photoFrame(width: 20, height: 12, frame: 0, gif: 2)
        _ = try draw(first)
        let next = try draw(second)
        #expect(next.out.contains("a=d,d=i,"), "the last GIF's placement goes, its image stays")
        #expect(model.images.count == 2 && model.placed.count == 1)
        let again = try draw(first)
        #expect(again.uploads == 0, "a GIF shown again sends no pixels")
        #expect(model.placed.count == 1)
        let shown = model.placed.keys.first.flatMap { model.shown($0) } == first.rgb
        #expect(shown)
        renderer.invalidate()
        let cleared = try draw(first)
        #expect(cleared.uploads == 0 && cleared.out.contains("a=p,"), "after a clear the picture is placed again, not sent")
    }

    // Issue 29 #1: the first GIF of a held round was uploaded while the
    // prompt was up, the screen cleared (CSI 2J: kitty frees every image
    // without a placement), then placed: nothing showed. A pause and a new
    // hold cleared it away the same way.
    @Test func theFirstGIFOfAHeldRoundAndTheGIFAfterAPauseAreOnScreen() throws {
        try withTemporaryDirectory { folder in
            let path = try PlayGIF.write(PlayGIF.animated(width: 16, height: 9, delays: [50, 50]), "g.gif", in: folder)
            let record = JSONRecord()
            record.set("kind", "image")
            let tty = folder.appendingPathComponent("tty").path
            let terminal = try Terminal(path: tty)
            terminal.enter(mouse: false)
            let screen = Screen(terminal: terminal, renderer: .kitty, columns: 40, rows: 12)
            let gif = try PreparedGIF.whole(record: record, path: path, layout: screen.layout(background: .black, cellPixels: CellSize(width: 8, height: 16)))
            var model = KittyModel()
            var seen = 0
            func shows(_ frame: Int) throws -> Bool {
                let bytes = try Data(contentsOf: URL(fileURLWithPath: tty))
                try model.apply(Array(bytes.dropFirst(seen)))
                seen = bytes.count
                return model.placed.keys.contains { model.shown($0) == gif.picture(frame).rgb }
            }
            // As the round does: the prompt; the press clears it, the GIF begins, drawn and flushed at once.
            screen.message("hold the mouse button or SPACE to begin")
            screen.flush()
            screen.clear()
            screen.clearPicture()
            screen.draw(gif, frame: 0)
            screen.flush()
            #expect(try shows(0), "the first GIF is on screen")
            // Let go (paused), then hold again: the GIF goes on where it was.
            screen.message("paused: hold to go on")
            screen.flush()
            screen.clear()
            screen.draw(gif, frame: 1)
            screen.flush()
            #expect(try shows(1), "the GIF is on screen again after the pause")
        }
    }

    @Test func freesTheEarlierGIFsPastTheBudgetAfterPlacingTheNext() throws {
        var renderer = KittyRenderer()
        var model = KittyModel()
        let side = 2100  // 17.6 MB a frame as the terminal keeps it: the fourth GIF passes 64 MiB
        var texts: [String] = []
        for gif in 1...4 {
            let picture = CellPicture(width: side, height: side, rgb: [UInt8](repeating: UInt8(gif * 40), count: side * side * 3))
            var tagged = picture
            tagged.tag = FrameTag(gif: UInt64(gif), frame: 0)
            var out: [UInt8] = []
            renderer.render(tagged, row: 1, col: 1, into: &out)
            try model.apply(renderer.takeUploads() + out)
            texts.append(String(decoding: out, as: UTF8.self))
        }
        #expect(!texts[1].contains("d=I") && !texts[2].contains("d=I"))
        let last = texts[3]
        let place = try #require(last.range(of: "a=p,"))
        let free = try #require(last.range(of: "a=d,d=I,"))
        #expect(place.lowerBound < free.lowerBound)
        #expect(model.images.count == 1, "only the GIF on screen stays")
    }

    @Test func insideTmuxWrapsCommandsAndDrawsPlaceholders() throws {
        var options = GraphicsOptions()
        options.tmuxPlaceholders = true
        var renderer = KittyRenderer(options: options)
        var out: [UInt8] = []
        renderer.render(photoFrame(width: 20, height: 12, frame: 0, span: CellSpan(columns: 3, rows: 2)), row: 5, col: 7, into: &out)
        let uploads = renderer.takeUploads()
        let text = String(decoding: uploads + out, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Ga=t,"))
        #expect(!text.contains("\u{1B}_Ga=p,i="), "no classic placement inside tmux")
        #expect(text.contains("a=p,U=1,"))
        var model = KittyModel()
        try model.apply(uploads + out)
        let id = try #require(model.images.keys.first)
        let color = "\u{1B}[38;2;\(id >> 16 & 0xFF);\(id >> 8 & 0xFF);\(id & 0xFF)m"
        // Row 0 then row 1, each starting with its row and column 0 diacritics, then bare placeholders.
        #expect(text.contains("\u{1B}[5;7H\(color)\u{10EEEE}\u{0305}\u{0305}\u{10EEEE}\u{10EEEE}"))
        #expect(text.contains("\u{1B}[6;7H\(color)\u{10EEEE}\u{030D}\u{0305}\u{10EEEE}\u{10EEEE}"))
    }

    @Test func theDiacriticsTableIsKittys() {
        #expect(KittyDiacritics.all.count == 297)
        #expect(KittyDiacritics.all.prefix(5) == [0x0305, 0x030D, 0x030E, 0x0310, 0x0312])
        #expect(KittyDiacritics.all.last == 0x1D244)
    }
}

@Suite struct SixelRendererTests {
    @Test func oneMedianCutPaletteAGIFBeatsTheCube() throws {
        let picture = photoFrame(width: 64, height: 48, frame: 0)
        var renderer = SixelRenderer()
        var out: [UInt8] = []
        renderer.render(picture, row: 1, col: 1, into: &out)
        var canvas = SixelCanvas(width: 64, height: 48, cellHeight: 16)
        try canvas.apply(out, row: 1, col: 1)
        var cube = picture.rgb
        for i in cube.indices { cube[i] = UInt8((Int(cube[i]) * 5 + 127) / 255 * 51) }
        #expect(psnr(canvas.rgb, picture.rgb) > psnr(cube, picture.rgb) + 6)
        #expect(psnr(canvas.rgb, picture.rgb) > 33)
    }

    @Test func sendsOnlyTheRowsThatChangedAndLeavesNoTrace() throws {
        var renderer = SixelRenderer()
        renderer.cellHeight = 8
        var canvas = SixelCanvas(width: 96, height: 64, cellHeight: 8)
        var last: CellPicture?
        var sizes: [Int] = []
        for frame in 0..<30 {
            let picture = photoFrame(width: 96, height: 64, frame: frame)
            var out: [UInt8] = []
            renderer.render(picture, row: 3, col: 2, into: &out)
            try canvas.apply(out, row: 3, col: 2)
            sizes.append(out.count)
            last = picture
        }
        // A fresh drawing of the 30th frame, with the GIF's palette (made from its first frame).
        var fresh = SixelRenderer()
        fresh.cellHeight = 8
        var out: [UInt8] = []
        fresh.render(photoFrame(width: 96, height: 64, frame: 0), row: 3, col: 2, into: &out)
        fresh.invalidate()
        out = []
        fresh.render(try #require(last), row: 3, col: 2, into: &out)
        var freshCanvas = SixelCanvas(width: 96, height: 64, cellHeight: 8)
        try freshCanvas.apply(out, row: 3, col: 2)
        let same = canvas.rgb == freshCanvas.rgb
        #expect(same, "the screen after 30 frames is a fresh drawing of the 30th")
        #expect(sizes.dropFirst().allSatisfy { $0 * 3 < sizes[0] }, "a moving square costs a few rows: \(sizes)")
        var again: [UInt8] = []
        renderer.render(try #require(last), row: 3, col: 2, into: &again)
        #expect(again.isEmpty, "an unchanged frame sends nothing")
    }

    @Test func aSceneChangeGetsAPaletteOfItsOwn() throws {
        var renderer = SixelRenderer()
        var canvas = SixelCanvas(width: 64, height: 48, cellHeight: 16)
        var out: [UInt8] = []
        renderer.render(photoFrame(width: 64, height: 48, frame: 0), row: 1, col: 1, into: &out)
        try canvas.apply(out, row: 1, col: 1)
        // The same GIF, another scene: its colours swapped round.
        var scene = photoFrame(width: 64, height: 48, frame: 1)
        for pixel in 0..<(64 * 48) { scene.rgb.swapAt(pixel * 3, pixel * 3 + 1) }
        out = []
        renderer.render(scene, row: 1, col: 1, into: &out)
        try canvas.apply(out, row: 1, col: 1)
        #expect(psnr(canvas.rgb, scene.rgb) > 33)
    }

    @Test func usesNoMoreColourRegistersThanTheTerminalHas() throws {
        var options = GraphicsOptions()
        options.sixelColors = 16
        var renderer = SixelRenderer(options: options)
        var out: [UInt8] = []
        renderer.render(photoFrame(width: 64, height: 48, frame: 0), row: 1, col: 1, into: &out)
        var canvas = SixelCanvas(width: 64, height: 48, cellHeight: 16)
        try canvas.apply(out, row: 1, col: 1)
        #expect(canvas.colorsDefined == [16])
    }
}

@Suite struct ITermRendererTests {
    @Test func sendsEachFrameAsAPNGScaledByTheTerminal() throws {
        var renderer = ITermRenderer()
        let picture = photoFrame(width: 30, height: 20, frame: 0, span: CellSpan(columns: 12, rows: 5))
        var out: [UInt8] = []
        renderer.render(picture, row: 2, col: 4, into: &out)
        let text = String(decoding: out, as: UTF8.self)
        let head = "\u{1B}[2;4H\u{1B}]1337;File=inline=1;size="
        #expect(text.hasPrefix(head))
        #expect(text.contains(";width=12;height=5;preserveAspectRatio=0;doNotMoveCursor=1:"))
        #expect(text.hasSuffix("\u{07}"))
        let base64 = String(text[text.index(after: try #require(text.firstIndex(of: ":")))...].dropLast())
        let png = [UInt8](try #require(Data(base64Encoded: base64)))
        #expect(text.contains("size=\(png.count);"))
        // libpng (the PNG decoder) checks every CRC.
        let decoded = try #require(PictureDecoder.decodeAll(bytes: png).frames.first)
        let rgb = decoded.rgba.enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        #expect(decoded.width == 30 && decoded.height == 20 && rgb == picture.rgb)
        var again: [UInt8] = []
        renderer.render(picture, row: 2, col: 4, into: &again)
        #expect(again.isEmpty, "an unchanged frame is not sent again")
    }
}

