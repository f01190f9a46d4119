import FoundationEssentials
import Glibc
import GiphyKit
import RecordKit
import SposureKit

extension Doctor {
    /// Each API's key: set or not, and whether it works, by one call of
    /// `giphy-pages plan | giphy-pages list` (the API cache off, so the call
    /// is real) when the allowance has one to spare.
    func keyChecks() -> [DoctorCheck] {
        let chosen = GIFProvider.chosen(environment: environment)
        var checks: [DoctorCheck] = []
        var working = false
        for provider in GIFProvider.allCases {
            // An API that needs no key: tried when rounds use it (no key is set), else said.
            let keyless = !provider.api.needsKey
            if keyless && chosen != provider {
                checks.append(DoctorCheck("keys", .info, "\(provider.displayName): no key needed, with --provider \(provider.rawValue)"))
                continue
            }
            let name = keyless ? "\(provider.displayName) (no key needed)" : provider.keyVariable
            guard provider.key(in: environment) != nil else {
                checks.append(DoctorCheck("keys", .info, "\(provider.keyVariable) not set (\(provider.displayName))",
                                          fix: "\(provider.keyHelp); export \(provider.keyVariable)=your-key"))
                continue
            }
            let uses = chosen == provider ? (keyless ? "rounds use it; a Giphy or Klipy key adds GIFs" : "rounds use \(provider.displayName)") : "\(provider.displayName), with --provider \(provider.rawValue)"
            let data = Folders.data(environment: environment)
            var info = stat()
            let kept = stat(data, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            let budget = CallBudget(provider: provider, rate: nil, folder: kept ? data : nil)
            if let left = budget.left(), left == 0 {
                checks.append(DoctorCheck("keys", .fail, "\(name)\(keyless ? "" : " set") (\(uses)), but the allowance (\(budget.rateText)) is spent",
                                          fix: "wait \(CallBudget.spoken(budget.waitForNext())): calls are allowed again then; rounds on queries played within 6 h still play from the cache"))
                continue
            }
            guard callKeys else {
                checks.append(DoctorCheck("keys", .ok, "\(name)\(keyless ? "" : " set") (\(uses)); not tried (--no-call)"))
                working = true
                continue
            }
            let outcome = tryKey(provider)
            let left = budget.left().map { "; \($0) call\($0 == 1 ? "" : "s") left of \(budget.rateText)" } ?? ""
            switch outcome {
            case .success(let what):
                working = true
                checks.append(DoctorCheck("keys", .ok, "\(name) works (\(uses)): \(what)\(left)"))
            case .failure(let problem):
                checks.append(DoctorCheck("keys", .fail, "\(name)\(keyless ? "" : " set"), but the call failed: \(problem.description)",
                                          fix: problem.fix))
            }
        }
        if !working {
            let anySet = GIFProvider.keyed.contains { $0.key(in: environment) != nil }
            checks.append(DoctorCheck("keys", .fail, anySet ? "no key works: a live round cannot list GIFs" : "no key is set, and Wikimedia Commons (which needs none) did not answer: a live round cannot list pictures",
                                      fix: anySet ? "see the Keys lines below; sposure demo plays offline meanwhile"
                                                  : "check the network, or set one of the keys (Keys, below: where to get each); sposure demo plays offline meanwhile"))
        }
        return checks
    }

    /// Why a key's call failed, and what to do.
    struct KeyProblem: Error {
        var description: String
        var fix: String
    }

    /// One call with `provider`'s key: what came back.
    func tryKey(_ provider: GIFProvider) -> Result<String, KeyProblem> {
        guard let pages = try? tools.path(of: "giphy-pages") else {
            return .failure(KeyProblem(description: "giphy-pages is not installed", fix: "make install"))
        }
        var plan = [pages, "plan", "--provider", provider.rawValue, "--max-results", "1", "--quiet"]
        if provider.api.countsResults { plan += ["--no-ping", "--total", "1"] }
        plan += ["--", "cat"]
        let list = [pages, "list", "--max-calls", "1", "--api-ttl", "0", "--max-wait", "0s", "--quiet"]
        let answer = ProgramOutput.run(plan, into: list)
        let lines = answer.stdout.split(separator: "\n")
        // Read as records, not matched as text: a title can hold `"kind":"gif"`.
        let records = lines.compactMap { try? JSONRecord.parse(String($0)) }
        if records.contains(where: { GIFRecord(record: $0) != nil }) {
            return .success("one call, \(lines.count) GIF\(lines.count == 1 ? "" : "s") listed")
        }
        if let error = records.lazy.compactMap(ErrorRecord.init(record:)).first {
            let (code, message) = (error.code, error.message)
            let fix: String
            let address = environment[provider.urlVariable] ?? provider.defaultBase
            switch code {
            case _ where !provider.api.needsKey:
                fix = "check the network (the API is \(address)); Wikimedia asks every client to name itself (a User-Agent with a contact: SPOSURE_CONTACT) and to wait when its servers lag"
            case "rate_limited": fix = "wait for the allowance (the message says when)"
            case "unauthorized", "http_401", "http_403":
                fix = "the API refused the key: check \(provider.keyVariable) (\(provider.keyHelp)); a new key takes a few minutes to work"
            case _ where code.hasPrefix("http_4"):
                fix = "check \(provider.keyVariable) (a wrong key can be answered as not found) and the API's address, \(environment[provider.urlVariable] ?? provider.defaultBase)"
            default: fix = "check the network (the API is \(environment[provider.urlVariable] ?? provider.defaultBase))"
            }
            return .failure(KeyProblem(description: "\(code): \(message)", fix: fix))
        }
        if answer.status == 0 {
            return .success("one call, answered with no results")
        }
        let said = answer.stderr.split(separator: "\n").last.map(String.init) ?? "exit \(answer.status)"
        if !provider.api.needsKey { return .failure(KeyProblem(description: said, fix: "check the network, and \(provider.urlVariable)")) }
        return .failure(KeyProblem(description: said, fix: said.contains("refused")
            ? "check \(provider.keyVariable) (\(provider.keyHelp)); a new key takes a few minutes to work"
            : "check the network, and \(provider.keyVariable)"))
    }
}
