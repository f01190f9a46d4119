/// The GIF engine (in progress): giflib decoding, compositing and scaling.
public enum GIFEngine {}
