// bench/clip-hash-driver.swift: the perceptual hash's measurement set and
// its figures (bench/clip-hash runs it).
//
//   clip-hash-driver [--scenes N] [--threshold T]
//
// Makes the set the tests make (Tests/TestSupport/ClipSet.swift): N scenes,
// each as its original clip and 8 copies of it (the same clip under another
// id), and 3 different clips that look alike per scene; hashes every GIF as
// gif-play does (ClipHash: the first frame and the one at 250 ms) and prints
// the distances: each copy to its original (true duplicates), each
// look-alike to its scene, and every other pair (different clips). Then, at
// threshold T (default ClipHash.threshold): duplicates found, false matches,
// and the margin on either side. Compiled by bench/clip-hash with swiftc -O
// over Sources/GIFEngine and the three TestSupport files it needs.

#if canImport(Glibc)
import Glibc
#endif

@main
struct ClipHashDriver {
    struct Hashed {
        var name: String
        var scene: Int
        var hash: ClipHash
    }

    static func main() {
        var scenes = 12, threshold = ClipHash.threshold
        var arguments = CommandLine.arguments.dropFirst()
        while let option = arguments.popFirst() {
            guard let value = arguments.popFirst().flatMap(Int.init), value >= 0 else { usage() }
            switch option {
            case "--scenes": scenes = max(1, value)
            case "--threshold": threshold = value
            default: usage()
            }
        }
        var originals: [Hashed] = [], copies: [(Hashed, ClipSet.Copy)] = [], lookalikes: [(Hashed, ClipSet.Lookalike)] = []
        for (index, scene) in ClipSet.scenes(count: scenes).enumerated() {
            originals.append(Hashed(name: scene.name, scene: index, hash: hash(ClipSet.original(scene), scene.name)))
            for copy in ClipSet.Copy.allCases {
                copies.append((Hashed(name: "\(scene.name) \(copy.rawValue)", scene: index,
                                      hash: hash(ClipSet.copy(copy, of: scene), copy.rawValue)), copy))
            }
            for kind in ClipSet.Lookalike.allCases {
                let other = ClipSet.lookalike(kind, of: scene)
                lookalikes.append((Hashed(name: other.name, scene: index, hash: hash(ClipSet.original(other), other.name)), kind))
            }
        }

        // (first, later) distances; a pair matches when both are within the threshold.
        func distance(_ a: Hashed, _ b: Hashed) -> (Int, Int) {
            (a.hash.first.distance(to: b.hash.first), a.hash.later.distance(to: b.hash.later))
        }
        var duplicates: [(Int, Int)] = []
        print("true duplicates: copy to original, (first frame, frame at \(ClipHash.laterMs) ms) bits apart")
        for copy in ClipSet.Copy.allCases {
            let pairs = copies.filter { $0.1 == copy }.map { distance($0.0, originals[$0.0.scene]) }
            duplicates += pairs
            print("  \(pad(copy.rawValue, 12)) " + pairs.map { "\($0.0),\($0.1)" }.joined(separator: " "))
        }
        var different: [(Int, Int)] = []
        print("look-alikes: same background and palette, other motion or content, to their scene")
        for kind in ClipSet.Lookalike.allCases {
            let pairs = lookalikes.filter { $0.1 == kind }.map { distance($0.0, originals[$0.0.scene]) }
            different += pairs
            print("  \(pad(kind.rawValue, 12)) " + pairs.map { "\($0.0),\($0.1)" }.joined(separator: " "))
        }
        // Every other pair of different clips: originals and look-alikes of different scenes, look-alikes of one scene.
        let clips = originals + lookalikes.map(\.0)
        var unrelated: [(Int, Int)] = []
        for i in clips.indices {
            for j in clips.indices where j > i && (clips[i].scene != clips[j].scene || i >= originals.count) {
                unrelated.append(distance(clips[i], clips[j]))
            }
        }
        different += unrelated

        let worst = { (pair: (Int, Int)) in pair.0 + pair.1 }
        print("histogram of the distance (the two frames' together: ClipHash.distance), in bits: duplicates | look-alikes | other different clips")
        let duplicateWorst = duplicates.map(worst), differentWorst = different.map(worst)
        let lookalikeWorst = Array(differentWorst.prefix(different.count - unrelated.count)), unrelatedWorst = unrelated.map(worst)
        for bits in 0...64 {
            let counts = [duplicateWorst, lookalikeWorst, unrelatedWorst].map { list in list.filter { $0 == bits }.count }
            if counts.contains(where: { $0 > 0 }) {
                print("  \(pad(String(bits), 3)) " + counts.map { pad(String($0), 4) }.joined(separator: " | "))
            }
        }
        let found = duplicateWorst.filter { $0 <= threshold }.count
        let falseMatches = differentWorst.filter { $0 <= threshold }.count
        let most = duplicateWorst.max() ?? 0, least = differentWorst.min() ?? 64
        print("threshold \(threshold): \(found) of \(duplicates.count) true duplicates found, "
            + "\(falseMatches) false matches in \(different.count) pairs of different clips "
            + "(\(different.count - unrelated.count) look-alike); duplicates at most \(most) bits apart, "
            + "different clips at least \(least) (of 128): margin \(threshold - most) below, \(least - threshold) above")
        exit(found == duplicates.count && falseMatches == 0 ? 0 : 1)
    }

    static func hash(_ bytes: [UInt8], _ name: String) -> ClipHash {
        do throws(GIFError) {
            if let hash = try ClipHash.make(from: GIFDecoder(bytes: bytes)) { return hash }
            print("\(name): too small to hash")
        } catch {
            print("\(name): \(error)")
        }
        exit(1)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static func usage() -> Never {
        print("usage: clip-hash-driver [--scenes N] [--threshold T]")
        exit(64)
    }
}
