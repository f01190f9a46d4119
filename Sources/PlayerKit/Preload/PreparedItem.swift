/// One input item, prepared: a GIF or a line.
public enum PreparedItem {
    case gif(PreparedGIF, availableAt: Int)
    case line([UInt8])
}
