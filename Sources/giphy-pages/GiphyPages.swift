import ArgumentParser
import SposureCLI
import SposureKit

/// `giphy-pages`: the first two stages, the page emitter and the URL lister.
@main
struct GiphyPages: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "giphy-pages",
        abstract: "Plan and run Giphy page requests: the first two stages of the game.",
        discussion: """
            giphy-pages plan -q spiders | giphy-pages list | fetch-images | …

            `plan` asks the API how many results a query has (one call) and writes one \
            "page" record per page. `list` runs those page requests and writes one "gif" \
            record per result. The key comes from GIPHY_API_KEY (never printed); the API \
            from --api-url, else GIPHY_API_URL, else https://api.giphy.com.
            """,
        subcommands: [Plan.self, List.self])
}

/// Options both subcommands take.
struct APIOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The API base (default: $GIPHY_API_URL, else https://api.giphy.com).", valueName: "url"))
    var apiURL: String?

    @Option(help: ArgumentHelp("Content rating: g, pg, pg-13 or r.", valueName: "rating"))
    var rating = "g"

    @Option(help: ArgumentHelp("Language of the search, as a 2-letter code.", valueName: "lang"))
    var lang = "en"

    @Option(help: ArgumentHelp("How long retries of one request may wait in all (429, 5xx, synthetic answers).", valueName: "time"))
    var maxWait = TimeSpan(seconds: 60)

    func validate() throws {
        guard ["g", "pg", "pg-13", "r"].contains(rating) else { throw ValidationError("--rating must be g, pg, pg-13 or r.") }
        guard lang.count >= 2 && lang.count <= 5 && lang.allSatisfy({ $0.isLetter || $0 == "-" }) else {
            throw ValidationError("--lang must be a language code such as en or pt-BR.")
        }
    }
}

/// The exit codes, for every subcommand's help.
let exitCodes = """
    Exit status:
      0    every request answered
      1    some records became error records, or the key was refused or missing
      2    a fatal error (--strict bad line, I/O error)
      64   usage error
      130  interrupted (SIGINT), 143 terminated (SIGTERM)
    A closed stdout (`| head`) is a normal end: exit 0.
    """
