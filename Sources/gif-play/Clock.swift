import ArgumentParser

/// `--clock`: real time, or virtual time that jumps from one due moment to
/// the next (no sleeping: headless replays).
enum Clock: String, ExpressibleByArgument, CaseIterable {
    case real, virtual
}
