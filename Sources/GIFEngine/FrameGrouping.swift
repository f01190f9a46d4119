/// Which image blocks make a displayed frame.
public enum FrameGrouping: Sendable, Equatable {
    /// Displayed frames, as the pygif suite defines them: an image with no delay
    /// (zero, or no graphic control extension) is composited with the images
    /// after it into one frame, which ends at the next image that has a delay
    /// (or at the last image). When no image has a delay and the file says it
    /// is an animation (a NETSCAPE2.0 or ANIMEXTS1.0 loop extension, or a
    /// GIF87a file, which cannot carry delays), every image is a frame shown at
    /// the default delay instead.
    case displayed
    /// Every image block is a frame, as browsers play them.
    case everyImage
}
