/// The block structure of a GIF, found by walking its blocks without decoding
/// any pixels: the header, every image block with the graphic control that
/// applies to it, the loop count and comment, and where the structure breaks.
///
/// Walking first costs a pass over the block lengths only, and it tells the
/// decoder what it needs before the first frame: whether any image has a
/// delay (which decides how images group into frames), how many frames there
/// will be, the loop count even when its extension comes last. The walk stops
/// at the first fault and keeps it; the images before it are still decoded.
struct GIFStructure: Sendable {
    /// `GIF87a` or `GIF89a`.
    var version: String
    /// The logical screen, in pixels.
    var width: Int, height: Int
    /// The global color table, when there is one.
    var globalTable: ColorTableSpan?
    /// The background color index of the logical screen descriptor.
    var backgroundIndex: Int
    /// Every image block before the first fault, in file order.
    var images: [ImageEntry] = []
    /// The last NETSCAPE2.0 / ANIMEXTS1.0 loop count (0 means forever).
    var loopCount: Int?
    /// The bytes of the last comment extension.
    var comment: [UInt8]?
    /// Where the structure breaks, when it does.
    var fault: GIFError?

    /// The longest comment kept, in bytes.
    static let maxCommentBytes = 64 * 1024

    /// Walks `bytes`. Throws only when there is nothing to decode: no GIF
    /// signature or an incomplete header. Later faults are kept in ``fault``.
    static func scan(_ bytes: UnsafeRawBufferPointer, maxImages: Int) throws(GIFError) -> GIFStructure {
        var walker = Walker(bytes: bytes)
        guard bytes.count >= 6, let signature = walker.ascii(at: 0, count: 6),
              signature == "GIF87a" || signature == "GIF89a" else {
            throw GIFError(.notGIF, "not a GIF: the file does not start with GIF87a or GIF89a")
        }
        guard bytes.count >= 13 else {
            throw GIFError(.truncated, "the file ends inside the logical screen descriptor", offset: bytes.count)
        }
        let flags = walker.byte(10)
        var structure = GIFStructure(
            version: signature, width: walker.word(6), height: walker.word(8),
            globalTable: nil, backgroundIndex: Int(walker.byte(11)))
        var position = 13
        if flags & 0x80 != 0 {
            let count = 2 << Int(flags & 7)
            guard position + 3 * count <= bytes.count else {
                throw GIFError(.truncated, "the file ends inside the global color table", offset: bytes.count)
            }
            structure.globalTable = ColorTableSpan(offset: position, count: count)
            position += 3 * count
        }
        structure.walkBlocks(&walker, from: position, maxImages: maxImages)
        return structure
    }

    /// The graphic control extension's fields, waiting for the image they apply to.
    private struct PendingControl {
        var delay = 0, disposal = 0
        var transparent: Int?
    }

    private mutating func walkBlocks(_ walker: inout Walker, from start: Int, maxImages: Int) {
        var position = start
        var control: PendingControl?
        while true {
            guard position < walker.count else {
                // A file that stops between blocks has only lost its trailer
                // (common, and harmless); browsers show it whole. One that
                // stops before any image shows nothing, so say why.
                if images.isEmpty {
                    fault = GIFError(.truncated, "the file ends before its first image or trailer", offset: position)
                }
                return
            }
            let introducer = walker.byte(position)
            switch introducer {
            case 0x3B:
                return
            case 0x21:
                guard position + 1 < walker.count else {
                    fault = GIFError(.truncated, "the file ends inside an extension", offset: walker.count)
                    return
                }
                let label = walker.byte(position + 1)
                let body = position + 2
                guard let after = walker.skipSubBlocks(from: body) else {
                    fault = GIFError(.truncated, "the file ends inside an extension (label 0x\(hex(label)))", offset: walker.count)
                    return
                }
                readExtension(label: label, body: body, walker: walker, control: &control)
                position = after
            case 0x2C:
                guard images.count < maxImages else {
                    fault = GIFError(.tooLarge, "more than \(maxImages) images", offset: position)
                    return
                }
                guard let entry = readImage(at: position, walker: walker, control: control) else { return }
                images.append(entry)
                if entry.dataEnd == -1 { return }  // a zero-sized image at a fault
                control = nil
                position = entry.dataEnd
            default:
                fault = GIFError(.corrupt, "unexpected byte 0x\(hex(introducer)) where a block should start", offset: position)
                return
            }
        }
    }

    /// Reads the image block at `position`; nil (with ``fault`` set) when it
    /// cannot be decoded at all.
    private mutating func readImage(at position: Int, walker: Walker, control: PendingControl?) -> ImageEntry? {
        guard position + 10 <= walker.count else {
            fault = GIFError(.truncated, "the file ends inside an image descriptor", offset: walker.count)
            return nil
        }
        let flags = walker.byte(position + 9)
        var entry = ImageEntry(
            descriptorOffset: position,
            left: walker.word(position + 1), top: walker.word(position + 3),
            width: walker.word(position + 5), height: walker.word(position + 7),
            interlaced: flags & 0x40 != 0, localTable: nil, codeSize: nil,
            dataOffset: position + 10, dataEnd: -1)
        if let control {
            entry.delayCentiseconds = control.delay
            entry.disposal = control.disposal
            entry.transparentIndex = control.transparent
        }
        var cursor = position + 10
        // A zero-sized image has no pixels, so neither its color table nor its
        // data matter: once its descriptor is read it counts, even when the
        // file breaks right after it (pygif's image-zero-* files do).
        func fail(_ message: String) -> ImageEntry? {
            fault = GIFError(.truncated, message, offset: walker.count)
            return entry.isEmpty ? entry : nil
        }
        if flags & 0x80 != 0 {
            let count = 2 << Int(flags & 7)
            guard cursor + 3 * count <= walker.count else { return fail("the file ends inside image \(images.count + 1)'s color table") }
            entry.localTable = ColorTableSpan(offset: cursor, count: count)
            cursor += 3 * count
        }
        guard cursor < walker.count else { return fail("the file ends before image \(images.count + 1)'s data") }
        entry.codeSize = Int(walker.byte(cursor))
        entry.dataOffset = cursor + 1
        guard let after = walker.skipSubBlocks(from: cursor + 1) else {
            return fail("the file ends inside image \(images.count + 1)'s data")
        }
        entry.dataEnd = after
        return entry
    }

    private mutating func readExtension(label: UInt8, body: Int, walker: Walker, control: inout PendingControl?) {
        let firstLength = Int(walker.byte(body))
        switch label {
        case 0xF9:
            // Only a block of at least 4 bytes is a graphic control; a shorter
            // one is ignored, as browsers do. The last one before an image wins.
            guard firstLength >= 4 else { return }
            let packed = walker.byte(body + 1)
            control = PendingControl(
                delay: walker.word(body + 2),
                disposal: Int((packed >> 2) & 7),
                transparent: packed & 1 != 0 ? Int(walker.byte(body + 4)) : nil)
        case 0xFF:
            guard firstLength == 11, let name = walker.ascii(at: body + 1, count: 11),
                  name == "NETSCAPE2.0" || name == "ANIMEXTS1.0" else { return }
            var block = body + 1 + firstLength
            while block < walker.count, walker.byte(block) != 0 {
                let length = Int(walker.byte(block))
                if length >= 3, walker.byte(block + 1) == 1 {
                    loopCount = walker.word(block + 2)
                }
                block += 1 + length
            }
        case 0xFE:
            var text: [UInt8] = []
            var block = body
            while block < walker.count, walker.byte(block) != 0 {
                let length = Int(walker.byte(block))
                let room = Self.maxCommentBytes - text.count
                if room > 0 {
                    text.append(contentsOf: walker.slice(block + 1, count: min(length, room)))
                }
                block += 1 + length
            }
            comment = text
        default:
            break
        }
    }
}

/// Bounds-checked reads over the file's bytes.
private struct Walker {
    let bytes: UnsafeRawBufferPointer
    var count: Int { bytes.count }

    func byte(_ offset: Int) -> UInt8 { bytes[offset] }

    /// A little-endian 16-bit word; callers check `offset + 1 < count`.
    func word(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }

    func ascii(at offset: Int, count length: Int) -> String? {
        guard offset >= 0, offset + length <= count else { return nil }
        return String(decoding: bytes[offset..<(offset + length)], as: UTF8.self)
    }

    func slice(_ offset: Int, count length: Int) -> [UInt8] {
        Array(bytes[offset..<min(offset + length, count)])
    }

    /// The offset just past the block terminator of the sub-blocks starting
    /// at `offset`, or nil when the file ends first.
    func skipSubBlocks(from offset: Int) -> Int? {
        var position = offset
        while position < count {
            let length = Int(bytes[position])
            if length == 0 { return position + 1 }
            position += 1 + length
        }
        return nil
    }
}

/// Two hex digits.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
}
