import ArgumentParser
import SposureKit

extension Stage {
    /// What `make` makes, or, when it throws, its error said on stderr (after
    /// `prefix: ` when given) and the tool ended with `status`: how a tool
    /// stops when a part it wires cannot be had (libcurl, the cache, a key).
    public func required<T>(_ prefix: String? = nil, exit status: ExitCode, _ make: () throws -> T) throws -> T {
        do {
            return try make()
        } catch {
            let said = (error as? CustomStringConvertible)?.description ?? "\(error)"
            diagnostics.error(prefix.map { "\($0): \(said)" } ?? said)
            throw status
        }
    }
}
