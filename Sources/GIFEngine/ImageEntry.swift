/// One image block found by ``GIFStructure``: where it is, its rectangle, and
/// the graphic control extension that applies to it.
struct ImageEntry: Sendable, Equatable {
    /// The offset of the image separator (`,`).
    var descriptorOffset: Int
    /// The image's rectangle on the logical screen, as written (not clipped).
    var left: Int, top: Int, width: Int, height: Int
    /// Rows are stored in the four interlaced passes.
    var interlaced: Bool
    /// The offset and entry count of the local color table, when there is one.
    var localTable: ColorTableSpan?
    /// The LZW minimum code size, or nil when the file ends before it
    /// (possible only for a zero-sized image, which needs no data).
    var codeSize: Int?
    /// The offset of the first data sub-block's length byte.
    var dataOffset: Int
    /// The offset just past the data's block terminator.
    var dataEnd: Int
    /// The delay from the graphic control extension, in centiseconds (0 when none).
    var delayCentiseconds: Int = 0
    /// The disposal method from the graphic control extension (0 when none).
    var disposal: Int = 0
    /// The transparent color index, when the graphic control extension sets one.
    var transparentIndex: Int?

    /// Whether the image has no pixels at all.
    var isEmpty: Bool { width == 0 || height == 0 }
}
