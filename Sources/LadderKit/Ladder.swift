/// A fear ladder: graded rungs from mild to intense, faced one at a time.
///
/// Read from a JSON file (docs/ladders.md) by ``LadderFile``; the built-in
/// ladders are in ``BuiltInLadders``, a person's own copies in the config folder.
public struct Ladder: Sendable, Equatable {
    /// The ladder's name, as given to `--ladder` (`spiders`).
    public var name: String
    /// What it is for people (`Spiders: from cartoons to one on a hand`).
    public var title: String
    /// The feared outcome in the person's words (`I will panic and have to look away`).
    public var expectation: String?
    /// The rungs, mildest first (numbered from 1 for people).
    public var rungs: [Rung]
    /// The rules that move along it (the defaults unless the file overrides them).
    public var rules: LadderRules
    /// Words whose GIFs every rung leaves out (`"avoid"`), besides each rung's own.
    public var avoid: [String]

    /// The fewest and the most rungs a ladder has.
    public static let rungCount = 8...15
    /// The largest rise of expected SUDS from one rung to the next.
    public static let largestGap = 15

    /// A ladder as given (not checked: ``LadderFile`` checks what it reads).
    public init(name: String, title: String, expectation: String? = nil, rungs: [Rung], rules: LadderRules = LadderRules(),
                avoid: [String] = []) {
        self.avoid = avoid
        self.name = name
        self.title = title
        self.expectation = expectation
        self.rungs = rungs
        self.rules = rules
    }

    /// What rung `number` leaves out: the ladder's words, then the rung's.
    public func avoidList(rung number: Int) -> AvoidList {
        AvoidList(avoid + (rung(number)?.avoid ?? []))
    }

    /// The rung numbered `number` (from 1), when there is one.
    public func rung(_ number: Int) -> Rung? {
        rungs.indices.contains(number - 1) ? rungs[number - 1] : nil
    }
}
