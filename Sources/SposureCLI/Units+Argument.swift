import ArgumentParser
import SposureKit

/// `--max-bytes 20MB`, `--max-line 1MiB`.
extension ByteCount: ExpressibleByArgument {
    public static var defaultCompletionKind: CompletionKind { .default }
}

/// `--time-limit 2m`, `--debounce 500ms`.
extension TimeSpan: ExpressibleByArgument {}
