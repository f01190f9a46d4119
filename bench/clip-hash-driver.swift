// bench/clip-hash-driver.swift: the perceptual hash's measurement set and
// its figures (bench/clip-hash runs it).
//
//   clip-hash-driver [--scenes N] [--gradient-threshold T] [--cosine-threshold T] [--list]
//
// Makes the set the tests make (Tests/TestSupport/ClipSet.swift): N scenes
// of each kind (photograph-like, fine moving detail, lit from one side,
// opening on blank frames), each as its original clip and 10 copies of it
// (the same clip under another id), and 3 different clips that look alike
// per scene; hashes every GIF as gif-play does (ClipHash: the first frame
// with detail and the one 250 ms after it, each a difference hash and a
// cosine hash) and prints the distances (difference, cosine) of each copy
// to its original (true duplicates), each look-alike to its scene, and of
// every other pair (different clips). Then, at the thresholds (default
// ClipHash's): duplicates found, false matches, the farthest copy and the
// closest different pair. Compiled by bench/clip-hash with swiftc -O over
// Sources/GIFEngine and the three TestSupport files it needs.

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

    /// Two clips' distances: difference hashes, cosine hashes (bits of 128 each).
    struct Pair {
        var names: String
        var gradient: Int, cosine: Int
        /// How far past the nearer threshold the pair is (≤ 0: it matches).
        func excess(_ gradientThreshold: Int, _ cosineThreshold: Int) -> Int {
            max(gradient - gradientThreshold, cosine - cosineThreshold)
        }
    }

    static func main() {
        var scenes = 6, gradientThreshold = ClipHash.gradientThreshold, cosineThreshold = ClipHash.cosineThreshold
        var list = false
        var arguments = CommandLine.arguments.dropFirst()
        while let option = arguments.popFirst() {
            if option == "--list" { list = true; continue }
            guard let value = arguments.popFirst().flatMap(Int.init), value >= 0 else { usage() }
            switch option {
            case "--scenes": scenes = max(1, value)
            case "--threshold", "--gradient-threshold": gradientThreshold = value
            case "--cosine-threshold": cosineThreshold = value
            default: usage()
            }
        }
        var originals: [Hashed] = [], copies: [(Hashed, ClipSet.Copy)] = [], lookalikes: [(Hashed, ClipSet.Lookalike)] = []
        for (index, scene) in ClipSet.measurementScenes(count: scenes).enumerated() {
            let clip = ClipSet.Clip(scene)
            originals.append(Hashed(name: scene.name, scene: index, hash: hash(clip.original(), scene.name)))
            for copy in ClipSet.Copy.allCases {
                copies.append((Hashed(name: "\(scene.name) \(copy.rawValue)", scene: index,
                                      hash: hash(clip.copy(copy), "\(scene.name) \(copy.rawValue)")), copy))
            }
            for kind in ClipSet.Lookalike.allCases {
                let other = ClipSet.lookalike(kind, of: scene)
                lookalikes.append((Hashed(name: other.name, scene: index, hash: hash(ClipSet.original(other), other.name)), kind))
            }
        }

        func pair(_ a: Hashed, _ b: Hashed) -> Pair {
            Pair(names: "\(a.name) / \(b.name)", gradient: a.hash.gradientDistance(to: b.hash), cosine: a.hash.cosineDistance(to: b.hash))
        }
        let show = { (pairs: [Pair]) in pairs.map { "\($0.gradient),\($0.cosine)" }.joined(separator: " ") }
        var duplicates: [Pair] = []
        print("true duplicates: copy to original, (difference, cosine) bits apart of 128 each")
        for copy in ClipSet.Copy.allCases {
            let pairs = copies.filter { $0.1 == copy }.map { pair($0.0, originals[$0.0.scene]) }
            duplicates += pairs
            print("  \(pad(copy.rawValue, 14)) at most \(pairs.map(\.gradient).max() ?? 0),\(pairs.map(\.cosine).max() ?? 0)"
                + (list ? ": " + show(pairs) : ""))
        }
        var lookalikePairs: [Pair] = []
        print("look-alikes: same background and palette, other motion or content, to their scene")
        for kind in ClipSet.Lookalike.allCases {
            let pairs = lookalikes.filter { $0.1 == kind }.map { pair($0.0, originals[$0.0.scene]) }
            lookalikePairs += pairs
            print("  \(pad(kind.rawValue, 14)) at least \(pairs.map(\.gradient).min() ?? 0),\(pairs.map(\.cosine).min() ?? 0)"
                + (list ? ": " + show(pairs) : ""))
        }
        // Every other pair of different clips: originals and look-alikes of different scenes, look-alikes of one scene.
        let clips = originals + lookalikes.map(\.0)
        var unrelated: [Pair] = []
        for i in clips.indices {
            for j in clips.indices where j > i && (clips[i].scene != clips[j].scene || i >= originals.count) {
                unrelated.append(pair(clips[i], clips[j]))
            }
        }
        let different = lookalikePairs + unrelated
        let sidelit = unrelated.filter { $0.names.hasPrefix("sidelit") && $0.names.contains("/ sidelit") }
        print("lit from one side, pairs of different clips: difference hash at least \(sidelit.map(\.gradient).min() ?? 0), "
            + "cosine hash at least \(sidelit.map(\.cosine).min() ?? 0)")

        print("histogram, bits apart: difference hash (duplicates | different clips) | cosine hash (duplicates | different clips)")
        for bits in 0...128 {
            let counts = [duplicates.map(\.gradient), different.map(\.gradient), duplicates.map(\.cosine), different.map(\.cosine)]
                .map { list in list.filter { $0 == bits }.count }
            if counts.contains(where: { $0 > 0 }) {
                print("  \(pad(String(bits), 4)) \(pad(String(counts[0]), 5)) \(pad(String(counts[1]), 6)) | \(pad(String(counts[2]), 5)) \(counts[3])")
            }
            if bits > 40 && counts[0] + counts[2] == 0 { break }
        }
        let found = duplicates.filter { $0.excess(gradientThreshold, cosineThreshold) <= 0 }
        let falseMatches = different.filter { $0.excess(gradientThreshold, cosineThreshold) <= 0 }
        for missed in duplicates where missed.excess(gradientThreshold, cosineThreshold) > 0 {
            print("  missed: \(missed.names) \(missed.gradient),\(missed.cosine)")
        }
        for match in falseMatches { print("  false match: \(match.names) \(match.gradient),\(match.cosine)") }
        let farthest = duplicates.max { $0.excess(gradientThreshold, cosineThreshold) < $1.excess(gradientThreshold, cosineThreshold) }
        let closest = different.min { $0.excess(gradientThreshold, cosineThreshold) < $1.excess(gradientThreshold, cosineThreshold) }
        print("farthest copy (difference, cosine): \(farthest.map { "\($0.gradient),\($0.cosine) (\($0.names))" } ?? "none"); "
            + "each at most \(duplicates.map(\.gradient).max() ?? 0),\(duplicates.map(\.cosine).max() ?? 0)")
        print("closest different pair (difference, cosine): \(closest.map { "\($0.gradient),\($0.cosine) (\($0.names))" } ?? "none"); "
            + "each at least \(different.map(\.gradient).min() ?? 0),\(different.map(\.cosine).min() ?? 0)")
        print("thresholds \(gradientThreshold) (difference) and \(cosineThreshold) (cosine), both: \(found.count) of \(duplicates.count) "
            + "true duplicates found, \(falseMatches.count) false matches in \(different.count) pairs of different clips "
            + "(\(lookalikePairs.count) look-alike, \(sidelit.count) lit from one side)")
        // Before issue 28: the difference hash alone, within 11 bits, of the first frame (a clip opening blank had none).
        let opensBlank = { (names: String) in names.hasPrefix("blank") || names.contains("/ blank") || names.contains("blank-opening") }
        let foundBefore = duplicates.filter { $0.gradient <= 11 && !opensBlank($0.names) }
        let falseBefore = different.filter { $0.gradient <= 11 && !opensBlank($0.names) }
        print("before issue 28 (the difference hash alone, 11 bits, the first frame): \(foundBefore.count) of \(duplicates.count) found, "
            + "\(falseBefore.count) false matches (\(falseBefore.filter { $0.names.hasPrefix("sidelit") }.count) lit from one side); "
            + "missed: " + ClipSet.Copy.allCases.map { copy in
                "\(copy.rawValue) \(duplicates.filter { $0.names.contains(" \(copy.rawValue) /") && !foundBefore.map(\.names).contains($0.names) }.count)"
            }.joined(separator: ", "))
        exit(found.count == duplicates.count && falseMatches.isEmpty ? 0 : 1)
    }

    static func hash(_ bytes: [UInt8], _ name: String) -> ClipHash {
        do throws(GIFError) {
            if let hash = try ClipHash.make(from: GIFDecoder(bytes: bytes)) { return hash }
            print("\(name): no hash (too small or too flat)")
        } catch {
            print("\(name): \(error)")
        }
        exit(1)
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }

    static func usage() -> Never {
        print("usage: clip-hash-driver [--scenes N] [--gradient-threshold T] [--cosine-threshold T] [--list]")
        exit(64)
    }
}
