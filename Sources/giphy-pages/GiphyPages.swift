import ArgumentParser
import NetKit
import FoundationEssentials
import Glibc
import GiphyKit
import LadderKit
import SposureCLI
import SposureKit

/// `giphy-pages`: the first two stages, the page emitter and the URL lister.
@main
struct GiphyPages: SposureTool {
    static let configuration = CommandConfiguration.tool("giphy-pages",
        abstract: "Plan and run GIF API page requests (Giphy, Klipy or Wikimedia Commons): the first two stages of the game.",
        discussion: """
            giphy-pages plan -q spiders | giphy-pages list | fetch-images | …

            `plan` writes one "page" record per page (for Giphy after one call that learns \
            how many results there are; Klipy is planned without a call). `list` runs those \
            page requests and writes one "gif" record per result, whichever API a page names. \
            Keys come from GIPHY_API_KEY and KLIPY_API_KEY (never printed); Wikimedia Commons \
            needs none and is used when neither is set. Each API from --api-url, else \
            GIPHY_API_URL / KLIPY_API_URL / COMMONS_API_URL, else the real one.
            """,
        subcommands: [Plan.self, List.self])

    /// Runs the tool; more `--avoid` words than a page carries are refused
    /// before the command line is parsed, whose repeated options cost time
    /// that grows with the square of their number (30 000 took 44 s).
    static func main() {
        let given = CommandLine.arguments.dropFirst().prefix { $0 != "--" }
            .filter { $0 == "--avoid" || $0.hasPrefix("--avoid=") }.count
        if given > AvoidList.maxEntries {
            let name = CommandLine.arguments.dropFirst().first == "list" ? "list" : "plan"
            Diagnostics(tool: "giphy-pages \(name)").error("--avoid: \(given) words; a page carries at most \(AvoidList.maxEntries)")
            Glibc.exit(64)
        }
        mainIgnoringClosedPipes()
    }
}

/// Options both subcommands take.
struct APIOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The API base (default: $GIPHY_API_URL, $KLIPY_API_URL or $COMMONS_API_URL, else https://api.giphy.com, https://api.klipy.com or https://commons.wikimedia.org/w/api.php; a keyless API takes it only when no key is set).", valueName: "url"))
    var apiURL: String?

    @Option(help: ArgumentHelp("Content rating: g, pg, pg-13 or r (Klipy's content_filter high, medium, low, off).", valueName: "rating"))
    var rating = "g"

    @Option(help: ArgumentHelp("Language of the search, as a 2-letter code (Klipy's locale).", valueName: "lang"))
    var lang = "en"

    @Option(help: ArgumentHelp("How long retries of one request may wait in all (429, 5xx, synthetic answers, a spent --rate).", valueName: "time"))
    var maxWait = TimeSpan(seconds: 60)

    @Option(help: ArgumentHelp("The most one page (or plan's ping) may take from its first call: attempts and the waits between them together (0: no limit). A page past it becomes a timeout error record that --retry-errors takes back.", valueName: "time"))
    var maxTime = TimeSpan(seconds: ListConfiguration.defaultMaxTime)

    @Option(help: ArgumentHelp("A client-side call allowance, kept in the data folder across runs and processes: 100/h, 100/day, 10/m, 2/s, or 0 for none (default: 100/h for Giphy, 100/day for Klipy, 500/h for Wikimedia Commons).", valueName: "rate"))
    var rate: String?

    @Option(help: ArgumentHelp("How long API answers are kept in the cache (<cache>/api/): a second round on the same query within it costs no call. 0 turns it off.", valueName: "time"))
    var apiTTL = TimeSpan(seconds: 6 * 3600)

    func validate() throws {
        guard ["g", "pg", "pg-13", "r"].contains(rating) else { throw ValidationError("--rating must be g, pg, pg-13 or r.") }
        guard lang.count >= 2 && lang.count <= 5 && lang.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else {
            throw ValidationError("--lang must be a language code such as en or pt-BR.")
        }
        if let rate, Self.parseRate(rate) == nil { throw ValidationError("--rate must look like 100/h, 100/day, 10/m, 2/s or 0.") }
    }

    /// `100/h` as (100, 3600); `0` as no limit.
    static func parseRate(_ text: String) -> (calls: Int, period: Double)? {
        if text == "0" { return (0, 1) }
        let parts = text.split(separator: "/")
        guard parts.count == 2, let calls = Int(parts[0]), calls > 0 else { return nil }
        switch parts[1] {
        case "s": return (calls, 1)
        case "m", "min": return (calls, 60)
        case "h": return (calls, 3600)
        case "d", "day": return (calls, 86400)
        default: return nil
        }
    }

    /// Names this tool in every request's User-Agent (with its version and
    /// where to reach its makers: Wikimedia refuses a client that does not).
    static func identify() {
        UserAgent.identify(program: "sposure-giphy-pages", version: SposureVersion.text, contact: SposureVersion.contact)
    }

    /// `--max-time` in seconds; nil: no limit.
    var maxTimeLimit: Double? { maxTime.seconds > 0 ? maxTime.seconds : nil }

    /// The API cache (nil with --api-ttl 0), under fetch-images' cache folder.
    var cache: APICache? { APICache(root: Folders.cache(), ttl: apiTTL.seconds) }

    /// `--rate` read, when given (validated already).
    var rateLimit: (calls: Int, period: Double)? { rate.flatMap(Self.parseRate) }

    /// The data folder, where the budget and Klipy's customer id are kept.
    var dataFolder: String { Folders.data() }
}

/// The keys and where to get them, for every subcommand's help.
let keysHelp = """
    Keys (one is enough; with neither, Wikimedia Commons, which needs none):
      GIPHY_API_KEY  Giphy: \(GIFProvider.giphy.keyHelp)
      KLIPY_API_KEY  Klipy: \(GIFProvider.klipy.keyHelp)
      (none)         Wikimedia Commons: freely licensed pictures; COMMONS_API_URL points elsewhere
    Offline, `make demo` (pipelines/demo) plays without any.
    API answers are kept for --api-ttl in $SPOSURE_CACHE/api (else $XDG_CACHE_HOME/sposure/api); \
    the --rate allowance in $SPOSURE_DATA (else $XDG_DATA_HOME/sposure), shared by every run.
    """

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
