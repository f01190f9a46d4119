import FoundationEssentials
import GIFEngine
import SposureKit
@testable import PlayerKit
import Testing
import TestSupport

/// How the screen fits pictures to the terminal's cells (issue 29 #4, #6).
@Suite struct ScreenTests {
    /// A `width` × `height` GIF fitted as `screen` lays pictures out with cells of `cellPixels`.
    func fitted(_ screen: Screen, cellPixels: CellSize?, width: Int = 16, height: Int = 9) throws -> CellPicture {
        try withTemporaryDirectory { folder in
            let layout = screen.layout(background: .black, cellPixels: cellPixels)
            let gif = PlayGIF.animated(width: width, height: height, delays: [10])
            return try PreparedGIF.whole(gif, in: folder, layout: layout).picture(0)
        }
    }

    // Issue 29 #6: kitty's cells were 9×20, the picture 4–11 % too tall.
    @Test func cellPicturesKeepTheirShapeInCellsThatAreNotOneByTwo() throws {
        #expect(BlockRenderer.cell(CellSize.halfBlock, shapedBy: CellSize(width: 9, height: 20))
            == CellSize(width: 1, height: 2, aspectWidth: 9, aspectHeight: 10))
        #expect(BlockRenderer.cell(CellSize.quadrant, shapedBy: CellSize(width: 6, height: 13))
            == CellSize(width: 2, height: 2, aspectWidth: 6, aspectHeight: 13))
        #expect(BlockRenderer.cell(CellSize.octant, shapedBy: CellSize(width: 8, height: 16)) == CellSize.octant)
        #expect(BlockRenderer.cell(CellSize.sextant, shapedBy: nil) == CellSize.sextant)
        for symbols in [Symbols.half, .quad, .sextant, .octant] {
            for cellPixels in [CellSize(width: 9, height: 20), CellSize(width: 6, height: 13), CellSize(width: 10, height: 20)] {
                let screen = Screen(terminal: nil, renderer: .truecolor, symbols: symbols, columns: 80, rows: 24)
                let picture = try fitted(screen, cellPixels: cellPixels, width: 160, height: 90)
                // On screen: each of the symbols' pixels is a cell's pixels divided by the grid.
                let shownWidth = Double(picture.width) * Double(cellPixels.width) / Double(symbols.cell.width)
                let shownHeight = Double(picture.height) * Double(cellPixels.height) / Double(symbols.cell.height)
                let off = abs((shownWidth / shownHeight) / (160.0 / 90.0) - 1)
                #expect(off < 0.04, "\(symbols) in \(cellPixels.width)x\(cellPixels.height) cells: off by \(Int(off * 100)) %")
            }
        }
    }

    // Issue 29 #4: a 356×200 sixel picture in xterm at 100×30 filled a
    // seventh of what the cell picture filled.
    @Test func sixelPicturesFillTheAreaTheCellsWouldWithinTheLargestImage() throws {
        let cell = CellSize(width: 6, height: 13)
        let sixel = Screen(terminal: nil, renderer: .sixel, columns: 100, rows: 30)
        let picture = try fitted(sixel, cellPixels: cell)
        #expect(picture.width == 600, "enlarged to the room's width (100 cells of 6 pixels)")
        #expect(abs(picture.height - 338) <= 13, "the GIF's shape, padded to whole cells")
        let cells = Screen(terminal: nil, renderer: .truecolor, symbols: .half, columns: 100, rows: 30)
        let blocks = try fitted(cells, cellPixels: cell)
        let sixelArea = picture.width * picture.height, cellArea = blocks.width * 6 * (blocks.height / 2) * 13
        #expect(sixelArea * 10 >= cellArea * 9, "the sixel picture covers what the cells do")
        var options = GraphicsOptions()
        options.sixelMaxSize = CellSize(width: 300, height: 300)
        let limited = Screen(terminal: nil, renderer: .sixel, columns: 100, rows: 30, graphics: options)
        let small = try fitted(limited, cellPixels: cell)
        #expect(small.width <= 300 && small.height <= 300, "never past the terminal's largest sixel image")
        let big = try fitted(sixel, cellPixels: cell, width: 1200, height: 675)
        #expect(big.width == 600, "reduced as before")
    }
}
