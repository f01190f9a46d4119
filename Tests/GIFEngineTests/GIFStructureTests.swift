import Testing
import TestSupport
@testable import GIFEngine

/// Walks `gif`'s blocks.
private func scan(_ gif: [UInt8], maxImages: Int = 100) throws(GIFError) -> GIFStructure {
    let result: Result<GIFStructure, GIFError> = gif.withUnsafeBytes { raw in
        do throws(GIFError) { return .success(try GIFStructure.scan(raw, maxImages: maxImages)) } catch { return .failure(error) }
    }
    return try result.get()
}

private let colors: [[UInt8]] = [[0, 0, 0], [255, 0, 0], [0, 255, 0], [0, 0, 255]]

@Suite struct GIFStructureTests {
    @Test func findsEveryImageWithTheControlThatAppliesToIt() throws {
        var gif = GIFBuilder(width: 4, height: 3, colors: colors, background: 2)
        gif.loop(3)
        gif.control(delay: 7, disposal: 2, transparent: 1)
        gif.image(width: 4, height: 3, pixels: Array(repeating: 1, count: 12))
        gif.image(left: 1, top: 1, width: 2, height: 1, pixels: [2, 3], colors: colors, interlaced: true)
        gif.comment(Array("hello".utf8))
        gif.trailer()
        let structure = try scan(gif.bytes)
        #expect(structure.version == "GIF89a")
        #expect(structure.width == 4 && structure.height == 3)
        #expect(structure.backgroundIndex == 2)
        #expect(structure.globalTable == ColorTableSpan(offset: 13, count: 4))
        #expect(structure.loopCount == 3)
        #expect(structure.comment == Array("hello".utf8))
        #expect(structure.fault == nil)
        #expect(structure.images.count == 2)
        let (first, second) = (structure.images[0], structure.images[1])
        #expect(first.delayCentiseconds == 7 && first.disposal == 2 && first.transparentIndex == 1)
        #expect(first.codeSize == 2 && !first.interlaced && first.localTable == nil)
        // A control applies to the next image only.
        #expect(second.delayCentiseconds == 0 && second.disposal == 0 && second.transparentIndex == nil)
        #expect(second.left == 1 && second.top == 1 && second.width == 2 && second.height == 1)
        #expect(second.interlaced && second.localTable?.count == 4)
        #expect(second.dataOffset > second.descriptorOffset && second.dataEnd > second.dataOffset)
    }

    @Test func refusesWhatIsNotAGIFAndAHeaderCutShort() {
        #expect(throws: GIFError.self) { try scan(Array("PNG89a......".utf8)) }
        let header = GIFBuilder(width: 1, height: 1).bytes
        do {
            _ = try scan(Array(header.prefix(10)))
            Issue.record("a cut header was accepted")
        } catch {
            #expect(error.kind == .truncated)
        }
    }

    @Test func keepsTheImagesBeforeAFaultAndTheFault() throws {
        var gif = GIFBuilder(width: 2, height: 1, colors: colors)
        gif.image(width: 2, height: 1, pixels: [1, 2])
        gif.raw([0x99])
        gif.image(width: 2, height: 1, pixels: [1, 2])
        let structure = try scan(gif.bytes)
        #expect(structure.images.count == 1)
        #expect(structure.fault?.kind == .corrupt)
        #expect(structure.fault?.message.contains("unexpected byte 0x99") == true)
    }

    @Test func aFileWithoutItsTrailerIsWholeButOneWithoutImagesIsNot() throws {
        var gif = GIFBuilder(width: 2, height: 1, colors: colors)
        gif.image(width: 2, height: 1, pixels: [1, 2])
        #expect(try scan(gif.bytes).fault == nil)
        let empty = try scan(GIFBuilder(width: 2, height: 1, colors: colors).bytes)
        #expect(empty.images.isEmpty)
        #expect(empty.fault?.kind == .truncated)
    }

    @Test func anImageCutInsideItsDataIsNotKept() throws {
        var gif = GIFBuilder(width: 2, height: 2, colors: colors)
        gif.image(width: 2, height: 2, pixels: [1, 2, 3, 0])
        let cut = Array(gif.bytes.dropLast(2))
        let structure = try scan(cut)
        #expect(structure.images.isEmpty)
        #expect(structure.fault?.message.contains("ends inside image 1's data") == true)
    }

    @Test func stopsAtTheImageLimit() throws {
        var gif = GIFBuilder(width: 1, height: 1, colors: colors)
        for _ in 0..<4 { gif.image(width: 1, height: 1, pixels: [1]) }
        gif.trailer()
        let structure = try scan(gif.bytes, maxImages: 3)
        #expect(structure.images.count == 3)
        #expect(structure.fault?.kind == .tooLarge)
    }

    @Test func ignoresAShortGraphicControlAndReadsAnAnimextsLoop() throws {
        var gif = GIFBuilder(width: 1, height: 1, colors: colors)
        gif.raw([0x21, 0xF9, 2, 0x09, 0x05, 0])  // a graphic control of 2 bytes: ignored
        gif.raw([0x21, 0xFF, 11] + Array("ANIMEXTS1.0".utf8) + [3, 1, 5, 0, 0])
        gif.image(width: 1, height: 1, pixels: [1])
        gif.trailer()
        let structure = try scan(gif.bytes)
        #expect(structure.images.first?.delayCentiseconds == 0)
        #expect(structure.images.first?.transparentIndex == nil)
        #expect(structure.loopCount == 5)
    }
}
