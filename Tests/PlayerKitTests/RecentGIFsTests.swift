// RecentGIFs (HistoryKit): which GIFs of a new round the last rounds showed,
// by provider and id or by a first frame close enough; and its threshold in
// step with gif-play's (ClipHash).

import GIFEngine
import HistoryKit
import Testing

@Suite struct RecentGIFsTests {
    @Test func theFirstFrameThresholdIsHalfTheClipThreshold() {
        #expect(FirstFrameHash.gradientThreshold == ClipHash.gradientThreshold / 2)
        #expect(FirstFrameHash.cosineThreshold == ClipHash.cosineThreshold / 2)
    }

    @Test func aGIFWasSeenByItsIdOrByAFirstFrameCloseEnough() {
        let recent = RecentGIFs([
            SeenRound.GIF(provider: "giphy", id: "a", hash: "00000000000000ff"): 0,
            SeenRound.GIF(provider: "klipy", id: "7", hash: nil): 2,
            SeenRound.GIF(provider: "giphy", id: "old", hash: "ffff000000000000"): 4,
        ])
        #expect(recent.age(provider: nil, id: "a", hash: nil) == 0)
        #expect(recent.age(provider: "klipy", id: "7", hash: "0123456789abcdef") == 2)
        #expect(recent.age(provider: "giphy", id: "7", hash: nil) == nil, "another provider's id")
        // Five bits from a kept first frame: the same clip under another id; six: not.
        #expect(recent.age(provider: "giphy", id: "new", hash: "0000000000000007") == 0)
        #expect(recent.age(provider: "giphy", id: "new", hash: "0000000000000003") == nil)
        #expect(recent.age(provider: "giphy", id: "new", hash: "FFFF000000000000") == 4)
        #expect(recent.age(provider: "giphy", id: "new", hash: "not a hash at all") == nil)
    }

    /// Issue 28: with both hashes kept, both must be close; a line kept
    /// before the cosine hash is judged by the difference hash alone, as then.
    @Test func aFirstFrameIsJudgedByBothHashesWhenBothAreKnownAndByTheOldOneAloneOtherwise() {
        let recent = RecentGIFs([
            SeenRound.GIF(provider: "giphy", id: "both", hash: "ffffffffffffffff", hashDCT: "00000000000000ff"): 1,
            SeenRound.GIF(provider: "giphy", id: "old", hash: "0000000000000000"): 3,
        ])
        // Lit from one side alike (the difference hashes equal), shaped otherwise: not the same clip.
        #expect(recent.age(provider: nil, id: "new", hash: "ffffffffffffffff", hashDCT: "ff00000000000000") == nil)
        // Both close: 8 and 9 bits.
        #expect(recent.age(provider: nil, id: "new", hash: "ffffffffffffff00", hashDCT: "000000000001ffff") == 1)
        #expect(recent.age(provider: nil, id: "new", hash: "fffffffffffffe00", hashDCT: "00000000000000ff") == nil, "9 bits of difference")
        #expect(recent.age(provider: nil, id: "new", hash: "ffffffffffffffff", hashDCT: "000000000003ffff") == nil, "10 bits of cosine")
        // A new GIF without a cosine hash, or a kept one without: the difference hash alone, 5 bits.
        #expect(recent.age(provider: nil, id: "new", hash: "ffffffffffffffe0", hashDCT: nil) == 1)
        #expect(recent.age(provider: nil, id: "new", hash: "000000000000001f", hashDCT: "00000000000000ff") == 3)
        #expect(recent.age(provider: nil, id: "new", hash: "000000000000003f", hashDCT: "00000000000000ff") == nil)
    }

    @Test func onlyHashesOfSixteenHexDigitsAreRead() {
        #expect(RecentGIFs.bits("00000000000000ff") == 255)
        for bad in ["", "ff", "+00000000000000f", "00000000000000fg", "000000000000000ff", " 00000000000000f"] {
            #expect(RecentGIFs.bits(bad) == nil, "\(bad)")
        }
    }
}
