import ArgumentParser
import GiphyKit

/// `--provider`, which `sposure play` and `sposure record` pass on to
/// `giphy-pages plan` (`@OptionGroup`): checked once, here.
struct ProviderOption: ParsableArguments {
    @Option(help: ArgumentHelp("The API: giphy, klipy or commons (default: the one whose key is set, Giphy first; with no key, commons: Wikimedia Commons, which needs none).", valueName: "name"))
    var provider: String?

    func validate() throws {
        if let provider, GIFProvider(rawValue: provider) == nil {
            throw ValidationError("--provider must be \(GIFProvider.namesText)")
        }
    }

    /// The API named; nil: the one whose key is set.
    var named: GIFProvider? { provider.flatMap(GIFProvider.init(rawValue:)) }
}
