import NetKit

/// Where each result list ends, as `giphy-pages list` learns it from the
/// answers, so that pages past the end cost no call.
///
/// Two kinds of end. One the API says: Giphy's `total_count`, Klipy's
/// `has_next: false`; pages past it are skipped without a record (the API
/// serves nothing there). And an empty page where the API said there was
/// more (`has_next: true` on every empty page, a `total_count` past it):
/// the list ends there all the same, or such an API would spend the whole
/// allowance on nothing, and its later pages become `list_ended` records
/// that `--retry-errors` takes back. Lists are told apart by
/// ``PageRequest/listKey``.
struct ListEnds {
    /// The results each list has, as last said.
    private var totals: [String: Int] = [:]
    /// Lists whose answer said `has_next: false`, and those whose later
    /// pages were skipped and said so (once a list).
    private var saidLast: Set<String> = []
    private var skippedSaid: Set<String> = []
    /// Lists that came back empty where the API said there was more: the
    /// offset of the empty page, and where it is in words.
    private var emptyAt: [String: (offset: Int, place: String)] = [:]

    /// What to do with a page.
    enum Verdict {
        /// Ask the API.
        case ask
        /// Past the end the API said: no call and no record; `note` is the
        /// line to say, once a list.
        case pastEnd(note: String?)
        /// Past an empty page: the page's record is this failure.
        case ended(FetchFailure)
    }

    /// Learns what `answer`, the answer to `page`, says of its list's end;
    /// returns the line to say when an empty page ends the list (once a list).
    mutating func learn(_ answer: GiphyResponse.Page, of page: PageRequest) -> String? {
        let list = page.listKey
        if let total = answer.totalCount { totals[list] = total }
        if answer.hasNext == false {
            saidLast.insert(list)
            let end = page.offset + answer.items.count
            totals[list] = min(totals[list] ?? end, end)
        }
        guard answer.items.isEmpty else {
            // The same page answered again with results (--follow, --retry-errors) opens the list again.
            if emptyAt[list]?.offset == page.offset { emptyAt[list] = nil }
            return nil
        }
        if let total = totals[list], page.offset >= total { return nil }  // the end the API said
        if let known = emptyAt[list], known.offset <= page.offset { return nil }
        let first = emptyAt[list] == nil
        emptyAt[list] = (page.offset, Self.place(page))
        guard first else { return nil }
        return "\(page.provider.rawValue): \(Self.name(page)) came back empty at \(Self.place(page)), though the API said there "
            + "was more: the list ends there, and its later pages become list_ended records without a call"
    }

    /// Whether `page` is asked, or where its list has ended.
    mutating func verdict(for page: PageRequest) -> Verdict {
        let list = page.listKey
        if let total = totals[list], page.offset >= total {
            guard saidLast.contains(list), skippedSaid.insert(list).inserted else { return .pastEnd(note: nil) }
            return .pastEnd(note: "\(page.provider.rawValue): \(Self.name(page)) has no page after the one that said has_next: false; its later pages cost no call")
        }
        if let empty = emptyAt[list], page.offset > empty.offset {
            return .ended(FetchFailure("list_ended", "not asked: \(Self.name(page)) came back empty at \(empty.place), which ends the list; "
                + "run this page later with --retry-errors"))
        }
        return .ask
    }

    /// `"spiders"`, or trending.
    private static func name(_ page: PageRequest) -> String { page.query.map { "\"\($0)\"" } ?? "trending" }

    /// `page 3` (numbered pages), else `offset 100`.
    private static func place(_ page: PageRequest) -> String { page.page.map { "page \($0)" } ?? "offset \(page.offset)" }
}
