import Glibc

/// Starts a program as a shell would, for a round's stages (``StagePipeline``)
/// and for `sposure doctor`'s questions (``ProgramOutput``): sposure blocks
/// the ending signals for its signal thread and ignores SIGPIPE, and a
/// program starts with neither (at their defaults, none blocked unless asked).
enum ProgramSpawn {
    /// Starts `arguments` (`arguments[0]`: a path, or a name on `PATH`) with
    /// each `(fd, target)` of `descriptors` dup2'd onto `target`, `blocked` signals
    /// blocked, and `environment` (a NULL-ended `envp`).
    ///
    /// - Returns: the new process, and posix_spawn's status (0, else an error number).
    static func start(_ arguments: [String], descriptors: [(Int32, Int32)], blocked: [Int32] = [],
                      environment: UnsafePointer<UnsafeMutablePointer<CChar>?>?) -> (pid: pid_t, status: Int32) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (fd, target) in descriptors { posix_spawn_file_actions_adddup2(&actions, fd, target) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t(), defaults = sigset_t()
        sigemptyset(&mask)
        sigemptyset(&defaults)
        for signal in SignalForwarder.forwarded + [SIGPIPE] { sigaddset(&defaults, signal) }
        for signal in blocked { sigaddset(&mask, signal) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let program = arguments[0]
        let status = program.contains("/")
            ? posix_spawn(&pid, program, &actions, &attributes, argv, environment)
            : posix_spawnp(&pid, program, &actions, &attributes, argv, environment)
        return (pid, status)
    }
}
