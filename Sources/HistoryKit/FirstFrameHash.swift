/// A clip's first frame with detail as gif-play hashes it, where only that
/// frame is known (a line of `seen.ndjson`, an off-topic mark): its
/// difference hash (`hash`) and, since issue 28, its cosine hash
/// (`hash_dct`), each 16 hex digits. Two are the same clip when both hashes
/// are close (``matches(_:)``); a hash kept before the cosine hash was
/// (`hash` alone) is judged by the difference hash alone, as it was then.
public struct FirstFrameHash: Sendable, Hashable {
    /// The difference hash's 64 bits.
    public var gradient: UInt64
    /// The cosine hash's 64 bits, when known.
    public var cosine: UInt64?

    /// The most bits two difference hashes may differ by when both cosine
    /// hashes are known too: half of gif-play's threshold for the two frames
    /// it hashes (`ClipHash.gradientThreshold`, 16; a test keeps them in step).
    public static let gradientThreshold = 8
    /// The most bits two cosine hashes may differ by: half of `ClipHash.cosineThreshold` (18).
    public static let cosineThreshold = 9
    /// The most bits two difference hashes may differ by when either has no
    /// cosine hash: the difference hash alone, as before issue 28 (half of
    /// its threshold then, 11), strict because alone it takes two pictures
    /// lit from the same side for one.
    public static let aloneThreshold = 5

    /// The hashes written as 16 hex digits each; nil when `hash` is not one
    /// (a `hashDCT` that is not one is left out).
    public init?(hash: String?, hashDCT: String?) {
        guard let gradient = hash.flatMap(Self.bits) else { return nil }
        self.gradient = gradient
        cosine = hashDCT.flatMap(Self.bits)
    }

    /// Whether `other` is the same clip's first frame.
    public func matches(_ other: FirstFrameHash) -> Bool {
        let gradientBits = (gradient ^ other.gradient).nonzeroBitCount
        guard let cosine, let otherCosine = other.cosine else { return gradientBits <= Self.aloneThreshold }
        return gradientBits <= Self.gradientThreshold && (cosine ^ otherCosine).nonzeroBitCount <= Self.cosineThreshold
    }

    /// The 64 bits of a hash written as 16 hex digits; nil for anything else.
    public static func bits(_ hex: String) -> UInt64? {
        guard hex.utf8.count == 16, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x46).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return UInt64(hex, radix: 16)
    }
}
