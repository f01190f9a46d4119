/// Why a ladder cannot be used: one message naming the file, the field and what is wrong.
///
///     spiders.json: rung 3, "suds": 120 is outside 0–100
///     spiders.json:4: not valid JSON: end of file expected near '}'
public struct LadderError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file (its path as given), or `built-in NAME`.
    public var file: String
    /// The line, for JSON that does not parse.
    public var line: Int?
    /// The field (`"name"`, `rung 3, "suds"`), when one is at fault.
    public var field: String?
    /// What is wrong.
    public var problem: String

    /// An error about `field` of `file`.
    public init(file: String, line: Int? = nil, field: String? = nil, problem: String) {
        self.file = file
        self.line = line
        self.field = field
        self.problem = problem
    }

    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        text += ": "
        if let field { text += field + ": " }
        return text + problem
    }
}
