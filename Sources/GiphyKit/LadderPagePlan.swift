import FoundationEssentials
import Glibc
import LadderKit
import RecordKit
import SposureKit

/// The pages of a ladder round: the rung's queries, each a section, with
/// `--mix` pages of mastered rungs woven in (one in `mix_every`), and every
/// page tagged with its ladder, rung and the rung's SUDS, which `list` copies
/// into each GIF and `gif-play` into each `shown` event, so `score` knows what
/// was faced.
public struct LadderPagePlan: Sendable {
    /// The rung played (its queries), from 1.
    public var rung: Int
    /// The tag of each section (a query of the rung, or of a mixed-in rung).
    public var tags: [String: LadderTag] = [:]
    /// The rung's queries, in order.
    public var queries: [String] = []
    /// The mixed-in queries, in order.
    public var mixQueries: [String] = []
    /// One page in this many is mixed in.
    public var mixEvery: Int
    /// What each section's results leave out: the ladder's words and its rung's.
    public var avoid: [String: AvoidList] = [:]
    /// The ladder's `fresh_rounds`, when it sets one other than the default (each page carries it).
    public var freshRounds: Int?

    /// The plan for rung `pick` of `ladder`, with the queries it names for
    /// `provider` (``Rung/queries(for:)``); with `mix`, the query rungs of
    /// `mastered` (below the rung played) are woven in.
    public init(ladder: Ladder, rung: Int, retest: Bool, mix: Bool, mastered: [Int], provider: String? = nil) {
        self.rung = rung
        mixEvery = ladder.rules.mixEvery
        if ladder.rules.freshRounds != LadderRules.defaultFreshRounds { freshRounds = ladder.rules.freshRounds }
        guard ladder.rung(rung) != nil else { return }
        queries = take(rung, of: ladder, provider: provider, retest: retest, mix: false)
        guard mix && !retest else { return }
        for number in mastered.sorted() where number < rung {
            mixQueries += take(number, of: ladder, provider: provider, retest: false, mix: true)
        }
    }

    /// The queries of rung `number` not taken yet, each given its avoid list and tag.
    private mutating func take(_ number: Int, of ladder: Ladder, provider: String?, retest: Bool, mix: Bool) -> [String] {
        guard let step = ladder.rung(number) else { return [] }
        var taken: [String] = []
        for query in step.queries(for: provider) where tags[query] == nil {
            taken.append(query)
            avoid[query] = ladder.avoidList(rung: number)
            tags[query] = LadderTag(ladder: ladder.name, rung: number, rungSuds: step.suds, retest: retest, mix: mix, still: step.still)
                .approaching(step.approach)
        }
        return taken
    }

    /// Every query planned: the rung's, then the mixed-in ones.
    public var allQueries: [String] { queries + mixQueries }

    /// The pages in play order: the rung's sections interleaved, and after
    /// every `mixEvery - 1` of them one page of the mixed-in sections (in turn).
    public func order(_ sections: [[PageRequest]]) -> [PageRequest] {
        let main = PagePlan.interleave(sections.filter { $0.first.map { !isMixed($0.section) } ?? false })
        let mixed = PagePlan.interleave(sections.filter { $0.first.map { isMixed($0.section) } ?? false })
        guard !mixed.isEmpty else { return main }
        var pages: [PageRequest] = []
        var next = mixed.makeIterator()
        for (index, page) in main.enumerated() {
            pages.append(page)
            if (index + 1) % (mixEvery - 1) == 0, let woven = next.next() { pages.append(woven) }
        }
        return pages
    }

    /// Appends the section's ladder fields to a page record.
    public func tag(_ record: JSONRecord, section: String) {
        tags[section]?.write(to: record)
    }

    private func isMixed(_ section: String) -> Bool { tags[section]?.mix == true }

    /// The `image` records of a rung that plays a folder of the person's own
    /// GIFs in place (no network): every `.gif` in `dir`, by name. A relative
    /// `dir` is read from beside the ladder's `file` (not from the current
    /// folder, which changes from run to run); a problem names that file.
    ///
    /// A `.gif` whose name is not UTF-8 cannot be written in a record (it
    /// would name another file, then fail as `not_found`): it is left out and
    /// said in `skipped` (its name with the bad bytes as `\xFF`).
    public static func folderImages(ladder: Ladder, rung: Int, retest: Bool, file: String? = nil,
                                    skipped: ((String) -> Void)? = nil) throws(LadderError) -> [JSONRecord] {
        guard let played = ladder.rung(rung), var dir = played.dir else { return [] }
        if dir == "~" || dir.hasPrefix("~/") {
            dir = Folders.home() + dir.dropFirst()
        } else if !dir.hasPrefix("/"), let file {
            dir = URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(dir).path
        }
        let folder = URL(fileURLWithPath: dir).standardizedFileURL.path
        func fail(_ problem: String) -> LadderError {
            LadderError(file: file ?? "ladder \(ladder.name)", field: "rung \(rung), \"dir\"", problem: "\(folder): \(problem)")
        }
        // opendir says why a folder cannot be listed, in the system's words.
        guard let directory = opendir(folder) else { throw fail(errno == ENOTDIR ? "not a folder" : String(cString: strerror(errno))) }
        defer { closedir(directory) }
        // readdir gives the bytes of each name, so a name that is not UTF-8 is known as one.
        var names: [String] = []
        while let entry = readdir(directory) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard bytes.count >= 4, String(decoding: bytes.suffix(4), as: UTF8.self).lowercased() == ".gif" else { continue }
            if let name = String(validating: bytes, as: UTF8.self) {
                names.append(name)
            } else {
                skipped?("\(folder)/" + bytes.map { $0 < 0x80 && $0 >= 0x20 ? String(UnicodeScalar($0)) : String(cFormat: "\\x%02X", Int32($0)) }.joined()
                         + ": the name is not UTF-8, left out (rename it)")
            }
        }
        let gifs = names.sorted()
        guard !gifs.isEmpty else { throw fail("holds no .gif file") }
        let tag = LadderTag(ladder: ladder.name, rung: rung, rungSuds: played.suds, retest: retest, still: played.still)
            .approaching(played.approach)
        return gifs.map { name in
            let record = ImageRecord(folder: Paths.lastComponent(folder), file: name, path: folder + "/" + name).record()
            tag.write(to: record)
            return record
        }
    }
}
