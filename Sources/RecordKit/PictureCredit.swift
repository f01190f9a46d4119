import SposureKit

/// Whose picture was shown and under which licence, as a licence such as
/// CC BY-SA asks: the `author`, `license` and `page_url` a Wikimedia Commons
/// record carries, on its `shown` event, and kept by `score` with the round.
///
///     {"author":"Jane Doe","license":"CC BY-SA 4.0","page_url":"https://commons.wikimedia.org/wiki/File:Spider.jpg"}
public struct PictureCredit: Sendable, Equatable, Hashable {
    /// The field names, spelled once, in the order they are written.
    public enum Field {
        public static let author = "author", license = "license", pageURL = "page_url"
    }

    /// Who made it, as the record says (remote text: print it through `RemoteText`).
    public var author: String?
    /// The licence's short name (`CC BY-SA 4.0`).
    public var license: String?
    /// The picture's page, where its full credit is.
    public var pageURL: String?

    /// A credit; nil fields are left out of its record.
    public init(author: String? = nil, license: String? = nil, pageURL: String? = nil) {
        self.author = author
        self.license = license
        self.pageURL = pageURL
    }

    /// The most characters a credit keeps of each field read from a record:
    /// a record is remote text (a shared recording too), and `score` writes
    /// up to ``maxPerRound`` credits into every history line.
    public static let maxFieldLength = 300

    /// The credit a record carries, each field cut to ``maxFieldLength``; nil
    /// when it has none of the three fields (every Giphy and Klipy record), so
    /// their events stay as they were.
    public init?(record: JSONRecord) {
        let field = { (key: String) in record.string(key).map { String($0.prefix(Self.maxFieldLength)) } }
        let author = field(Field.author), license = field(Field.license), page = field(Field.pageURL)
        guard author != nil || license != nil || page != nil else { return nil }
        self.init(author: author, license: license, pageURL: page)
    }

    /// Writes the fields it has to `record`, in order.
    public func write(to record: JSONRecord) {
        if let author { record.set(Field.author, author) }
        if let license { record.set(Field.license, license) }
        if let pageURL { record.set(Field.pageURL, pageURL) }
    }

    /// The most distinct credits a round keeps (a long round of Commons
    /// pictures must not grow the score record and history line without end).
    public static let maxPerRound = 50

    /// Reads the `credits` array of a record (objects without any field skipped), at most ``maxPerRound``.
    public static func list(in record: JSONRecord, key: String = "credits") -> [PictureCredit] {
        Array((record.objects(key) ?? []).compactMap(PictureCredit.init(record:)).prefix(maxPerRound))
    }

    /// Writes `credits` as the array `key` of `record`; nothing when empty.
    public static func write(_ credits: [PictureCredit], to record: JSONRecord, key: String = "credits") {
        for credit in credits { credit.write(to: record.appendObject(key)) }
    }

    /// `credits` with `credit` added when new and room is left.
    public static func adding(_ credit: PictureCredit, to credits: [PictureCredit]) -> [PictureCredit] {
        guard credits.count < maxPerRound, !credits.contains(credit) else { return credits }
        return credits + [credit]
    }

    /// A line for a report, `lead` first: `pictures by A, B, CC BY-SA 4.0; C, CC0 (Wikimedia Commons)`,
    /// names cleaned of escapes and cut, at most `names` a licence and
    /// `licences` licences (50 credits of 50 licences would be a line of
    /// thousands of characters); nil when there are none.
    public static func summary(_ credits: [PictureCredit], lead: String = "pictures by ", names: Int = 3,
                               licences: Int = 4) -> String? {
        guard !credits.isEmpty else { return nil }
        var byLicense: [(license: String, authors: [String])] = []
        for credit in credits {
            let license = RemoteText.clean(credit.license ?? "licence not named", limit: 30)
            let author = RemoteText.clean(credit.author ?? "unknown author", limit: 40)
            if let at = byLicense.firstIndex(where: { $0.license == license }) {
                if !byLicense[at].authors.contains(author) { byLicense[at].authors.append(author) }
            } else {
                byLicense.append((license, [author]))
            }
        }
        var parts = byLicense.prefix(licences).map { group -> String in
            let shown = group.authors.prefix(names).joined(separator: ", ")
            let more = group.authors.count > names ? " and \(group.authors.count - names) more" : ""
            return shown + more + ", " + group.license
        }
        if byLicense.count > licences {
            let authors = byLicense.dropFirst(licences).reduce(0) { $0 + $1.authors.count }
            parts.append("\(authors) more under \(byLicense.count - licences) other licence\(byLicense.count - licences == 1 ? "" : "s")")
        }
        return lead + parts.joined(separator: "; ") + " (Wikimedia Commons)"
    }
}
