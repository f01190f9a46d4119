import NetKit
import SposureKit

/// One ping: a page of one result, asked to learn how many there are.
final class PingJob: RequestJob {
    let page: PageRequest
    /// What came of it: the count (nil when the API leaves it out), or why not.
    var result: Result<Int?, FetchFailure>?
    /// The API refused the key (said once, by the planner).
    var refusal: String?

    init(page: PageRequest) {
        self.page = page
        super.init(sequence: 0)
    }
}

/// `giphy-pages plan`'s pings, on the same ``RequestEngine`` as the lister
/// and the fetcher: the call budget gates each call, the engine retries
/// transient failures (Retry-After, jittered backoff, `--max-wait` in all),
/// and a good answer is kept in the API cache.
final class PingClient: RequestClient {
    private let stage: Stage
    private let access: APIAccess
    private let configuration: PlanConfiguration
    private var budget: CallBudget?

    init(stage: Stage, access: APIAccess, configuration: PlanConfiguration) {
        self.stage = stage
        self.access = access
        self.configuration = configuration
    }

    func admit(_ sequence: Int, _ input: InputRecord) -> PingJob? { nil }

    /// A call goes on the budget; a wait past `--max-wait` in all fails the ping.
    func gate(_ job: PingJob, now: UInt64) -> RequestGate {
        let budget = self.budget ?? CallBudget(provider: job.page.provider, rate: configuration.rate, folder: configuration.dataFolder)
        if self.budget == nil { budget.report = { [stage] in stage.diagnostics.warning($0) } }
        self.budget = budget
        let wait = budget.take()
        guard wait > 0 else { return .start }
        guard job.waited + wait <= configuration.maxWait else {
            job.result = .failure(CallBudget.spent(budget, wait: wait))
            return .settled
        }
        job.waited += wait
        return .pause(seconds: wait)
    }

    func start(_ job: PingJob, on handle: RequestHandle) -> Result<MemoryTransfer, FetchFailure> {
        MemoryTransfer.get(access.url(job.page), on: handle)
    }

    func complete(_ job: PingJob, _ transfer: MemoryTransfer, result: TransferResult, handle: RequestHandle) -> RequestCompletion {
        let response = transfer.response(result)
        let body = access.masked(answer: response.body)  // nor does the cache file hold an echoed key
        let outcome = response.failure.map { GiphyResponse.failure($0) }
            ?? job.page.provider.interpret(status: response.status, body: body, url: access.displayURL(job.page))
        switch outcome {
        case .page(let answer):
            if let cache = configuration.cache {
                do {
                    try cache.keep(job.page, access: access, body: body)
                } catch {
                    stage.diagnostics.warning("API cache: \(error.description)")
                }
            }
            job.result = .success(answer.totalCount)
            return .done
        case .unauthorized(let message):
            job.refusal = access.refusal(message)
            job.result = .failure(FetchFailure("unauthorized", access.refusal(message)))
            return .done
        case .failure(let failure):
            return .failed(failure)
        }
    }

    func fail(_ job: PingJob, _ failure: FetchFailure) { job.result = .failure(failure) }

    func interrupt(_ jobs: [PingJob], with failure: FetchFailure) {
        for job in jobs { job.result = .failure(failure) }
    }

    func noteRetry(_ job: PingJob, _ failure: FetchFailure, delay: Double) {
        stage.diagnostics.note("\(failure.code); asking again in \(Int(delay.rounded(.up)))s")
    }

    func progressLine(active: Int) -> String { "" }

    func describe(_ job: PingJob) -> String { access.displayURL(job.page) }
}
