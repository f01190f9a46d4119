import ArgumentParser

/// The ladder `score ladder` shows, and its `--copy` (`@OptionGroup`);
/// `sposure ladder` takes the same and passes them on to it.
public struct LadderArguments: ParsableArguments, Sendable {
    /// The ladder; nil lists them all.
    @Argument(help: ArgumentHelp("The ladder (spiders, snakes, dogs, insects, heights, flying, needles, blood, clowns, deep-water, or your own).", valueName: "name"))
    public var name: String?

    /// Write the built-in ladder to the ladders folder.
    @Flag(help: "Write the built-in ladder NAME to your ladders folder for editing, and print the path.")
    public var copy = false

    /// With `copy`: over an existing copy.
    @Flag(help: "With --copy: replace your existing copy.")
    public var replace = false

    /// None given.
    public init() {}

    /// The arguments as `score ladder` takes them.
    public var arguments: [String] {
        (name.map { [$0] } ?? []) + (copy ? ["--copy"] : []) + (replace ? ["--replace"] : [])
    }
}
