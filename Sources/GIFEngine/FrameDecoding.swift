/// A decoder that gives a file's frames one at a time: ``GIFDecoder`` (a
/// GIF) and ``PictureDecoder`` (any of the four formats, told by the bytes).
public protocol FrameDecoding: AnyObject {
    /// What the file says of itself.
    var info: GIFInfo { get }
    /// Opens `bytes`; throws when they cannot even be opened.
    init(bytes: [UInt8], options: DecodeOptions) throws(GIFError)
    /// The next frame at full size; nil after the last.
    func nextFrame() throws(GIFError) -> Frame?
}

extension FrameDecoding {
    /// Decodes every frame and keeps them all, at full size (for tests and
    /// tools; the player asks for one frame at a time instead). A fault ends
    /// the list and is returned beside it; `info` is nil when the file could
    /// not even be opened.
    public static func decodeAll(bytes: [UInt8], options: DecodeOptions = DecodeOptions())
        -> (info: GIFInfo?, frames: [Frame], error: GIFError?) {
        var frames: [Frame] = []
        do throws(GIFError) {
            let decoder = try Self(bytes: bytes, options: options)
            do throws(GIFError) {
                while let frame = try decoder.nextFrame() { frames.append(frame) }
            } catch {
                return (decoder.info, frames, error)
            }
            return (decoder.info, frames, nil)
        } catch {
            return (nil, frames, error)
        }
    }
}
