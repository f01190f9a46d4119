import ArgumentParser

@main
struct GIFPlay: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gif-play", abstract: "(in progress)")
}
