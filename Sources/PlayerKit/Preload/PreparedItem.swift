/// One input item, prepared: a GIF or a line.
public enum PreparedItem {
    case gif(PreparedGIF, availableAt: Int, rest: GIFDecoding?)
    case line([UInt8])
}
