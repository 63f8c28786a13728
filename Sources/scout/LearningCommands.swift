import ArgumentParser
import Foundation
import ScoutCore
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
import ScoutWorker

/// The lines of a decision log, read with the worker's request readers; exits with status 1
/// naming the line and field of the first bad line.
private func readDecisions(_ path: String, worker: Worker) throws -> [LoggedDecision] {
    guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--log: cannot read \(path)") }
    var out: [LoggedDecision] = []
    var number = 0
    for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
        number += 1
        let bytes = [UInt8](line)
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
        let decision: Result<LoggedDecision, ScoutError>
        do throws(ScoutError) { decision = .success(try worker.loggedDecision(bytes, line: number)) } catch { decision = .failure(error) }
        switch decision {
        case .success(let d): out.append(d)
        case .failure(let e):
            FileHandle.standardError.write(Data("scout: \(path): \(e.description)\n".utf8))
            throw ExitCode(1)
        }
    }
    return out
}

/// The worker and recommender of the catalogue options (the recommender is required).
private func learningWorker(_ catalog: CatalogOptions) throws -> (Worker, Recommender) {
    let engine = try catalog.engine()
    guard let loaded = try catalog.recommender(for: engine) else {
        throw ValidationError("the recommender's data is needed: give --data with activities.json, weights.json and enjoyment_prior.json")
    }
    return (Worker(engine: engine, recommender: loaded.recommender), loaded.recommender)
}

/// `scout evaluate`: a candidate policy's value estimated from a decision log.
struct Evaluate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Estimate a candidate recommendation policy's value from a decision log (IPS, SNIPS, doubly robust).",
        discussion: "The candidate is the logged policy changed by --mode, --set and --candidate-prior. The value is the mean "
            + "rating of what is done of a decision's offers (enjoyed 1, neutral 0.5, disliked 0): of two offers, the one taken. "
            + "A decision of several offers needs its set_propensity. Prints one JSON object. See docs/recommender.md.")

    @OptionGroup var catalog: CatalogOptions

    @Option(name: .customLong("log"), help: ArgumentHelp("The decision log (JSON Lines).", valueName: "file"))
    var log: String

    @Option(name: .customLong("mode"), help: ArgumentHelp("The candidate's mode: explore or best (default: each request's own).", valueName: "mode"))
    var mode: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("A term weight of the candidate, as term=value (repeatable): enjoyment=0.", valueName: "term=value"))
    var settings: [String] = []

    @Option(name: .customLong("candidate-prior"), help: ArgumentHelp("The candidate's enjoyment prior file.", valueName: "file"))
    var candidatePrior: String?

    func validate() throws {
        if let mode, ActivityRequest.Mode(rawValue: mode) == nil { throw ValidationError("--mode is explore or best") }
        for s in settings where s.split(separator: "=").count != 2 || Double(s.split(separator: "=")[1]) == nil {
            throw ValidationError("--set takes term=number, as enjoyment=0")
        }
    }

    func run() throws {
        let (worker, recommender) = try learningWorker(catalog)
        var candidate = recommender
        if let candidatePrior {
            let loaded: Result<EnjoymentPrior, ScoutError>
            do throws(ScoutError) { loaded = .success(try EnjoymentPrior.load(path: candidatePrior)) } catch { loaded = .failure(error) }
            switch loaded {
            case .success(let p): candidate = recommender.with(prior: p)
            case .failure(let e):
                FileHandle.standardError.write(Data("scout: --candidate-prior: \(e.description)\n".utf8))
                throw ExitCode(1)
            }
        }
        let overrides = JSONValue.object(settings.map { s in
            let parts = s.split(separator: "=")
            return (String(parts[0]), .number(String(parts[1])))
        })
        var weights: RecommenderWeights?
        if !settings.isEmpty {
            let read: Result<RecommenderWeights, ScoutError>
            do throws(ScoutError) { read = .success(try recommender.weights.overriding(overrides, group: .activity, path: "--set")) } catch { read = .failure(error) }
            switch read {
            case .success(let w): weights = w
            case .failure(let e): throw ValidationError(e.description)
            }
        }
        let decisions = try readDecisions(log, worker: worker)
        let newMode = mode.flatMap(ActivityRequest.Mode.init(rawValue:))
        let estimated: Result<PolicyValue, ScoutError>
        do throws(ScoutError) {
            estimated = .success(try OfflineEvaluation.estimate(decisions, recommender: candidate) { logged in
                var r = logged
                if let newMode { r.mode = newMode }
                if let weights {
                    var w = logged.weights ?? recommender.weights
                    for term in ActivityTerm.allCases where settings.contains(where: { $0.hasPrefix(term.rawValue + "=") }) {
                        w.activityTerms[term] = weights.activityTerms[term]
                    }
                    r.weights = w
                }
                return r
            })
        } catch { estimated = .failure(error) }
        let value: PolicyValue
        switch estimated {
        case .success(let v): value = v
        case .failure(let e):
            FileHandle.standardError.write(Data("scout: \(log): \(e.description)\n".utf8))
            throw ExitCode(1)
        }
        var w = JSONWriter()
        func estimate(_ key: String, _ e: Estimate) {
            w.key(key); w.objectStart()
            w.key("value"); w.number(e.value, decimals: 4); w.key("low"); w.number(e.low, decimals: 4); w.key("high"); w.number(e.high, decimals: 4)
            w.objectEnd()
        }
        w.objectStart()
        w.key("log"); w.string(log)
        w.key("decisions"); w.int(value.decisions)
        w.key("unrated"); w.int(value.unrated)
        w.key("effective_sample_size"); w.number(value.effectiveSampleSize, decimals: 1)
        w.key("candidate"); w.objectStart()
        w.key("mode"); if let mode { w.string(mode) } else { w.string("as logged") }
        w.key("weights"); w.objectStart()
        for s in settings { let p = s.split(separator: "="); w.key(String(p[0])); w.number(Double(p[1])!) }
        w.objectEnd()
        w.key("prior_version"); w.string(candidate.prior.version)
        w.objectEnd()
        estimate("logged", value.logged)
        estimate("ips", value.ips)
        estimate("snips", value.snips)
        estimate("dr", value.doublyRobust)
        w.objectEnd()
        print(String(decoding: w.bytes, as: UTF8.self))
    }
}

/// `scout fit-prior`: the next enjoyment prior from logged, rated decisions.
struct FitPrior: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit-prior",
        abstract: "Fit the next enjoyment prior from a decision log's rated offers (deterministic).",
        discussion: "Logistic regression of the ratings on the prior's features, shrunk toward the current prior (--ridge). "
            + "--emit-examples writes the rated offers' features as JSON Lines instead (the map step of scripts/spark_fit.py); "
            + "--examples fits from such lines. See docs/recommender.md.")

    @OptionGroup var catalog: CatalogOptions

    @Option(name: .customLong("log"), help: ArgumentHelp("The decision log (JSON Lines).", valueName: "file"))
    var log: String?

    @Option(name: .customLong("examples"), help: ArgumentHelp("Rated examples written by --emit-examples, instead of --log.", valueName: "file"))
    var examples: String?

    @Flag(name: .customLong("emit-examples"), help: "Write the log's rated offers and choices as feature lines to stdout and stop.")
    var emitExamples = false

    @Option(name: .customLong("output"), help: ArgumentHelp("Where to write the fitted prior.", valueName: "file"))
    var output: String?

    @Option(name: .customLong("version"), help: ArgumentHelp("The fitted prior's version (YYYY-MM-DD.N).", valueName: "version"))
    var version: String?

    @Option(name: .customLong("ridge"), help: ArgumentHelp("Precision of the pull toward the current prior, per coefficient.", valueName: "λ"))
    var ridge: Double = 1

    @Option(name: .customLong("largest-weight"), help: ArgumentHelp(
        "Cap of an offer's inverse-propensity weight (1: every offer weighs the same).", valueName: "w"))
    var largestWeight: Double = 1

    func validate() throws {
        guard (log == nil) != (examples == nil) else { throw ValidationError("give --log or --examples") }
        if emitExamples && log == nil { throw ValidationError("--emit-examples reads --log") }
        if !emitExamples && (output == nil || version == nil) { throw ValidationError("--output and --version are required to fit") }
        guard ridge > 0 && ridge.isFinite else { throw ValidationError("--ridge must be above 0") }
        guard largestWeight >= 1 && largestWeight.isFinite else { throw ValidationError("--largest-weight must be 1 or more") }
    }

    func run() throws {
        let (worker, recommender) = try learningWorker(catalog)
        var rated: [RatedExample] = []
        if let log {
            for d in try readDecisions(log, worker: worker) { rated += PriorFit.examples(d, recommender: recommender) }
        } else if let examples {
            rated = try FitPrior.readExamples(examples)
        }
        if emitExamples {
            var text = ""
            for e in rated {
                var w = JSONWriter()
                w.objectStart(); w.key("x"); w.arrayStart(); for v in e.features { w.number(v) }; w.arrayEnd()
                w.key("y"); w.number(e.rating)
                w.key("pet"); w.string(e.pet); w.key("category"); w.int(e.category); w.key("activity"); w.string(e.activity)
                w.key("propensity"); w.number(e.propensity)
                if let o = e.over {
                    w.key("over"); w.objectStart()
                    w.key("x"); w.arrayStart(); for v in o.features { w.number(v) }; w.arrayEnd()
                    w.key("category"); w.int(o.category); w.key("activity"); w.string(o.activity)
                    w.objectEnd()
                }
                w.objectEnd()
                text += String(decoding: w.bytes, as: UTF8.self) + "\n"
            }
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        guard !rated.isEmpty else { throw ValidationError("no rated offers to fit") }
        let result = PriorFit.fit(rated, start: recommender.prior, version: version!, ridge: ridge, largestWeight: largestWeight)
        let choices = rated.filter { $0.over != nil }.count
        let fitted: [(String, JSONValue)] = [
            ("from_prior", .string(recommender.prior.version)), ("rated_offers", .number(String(rated.count - choices))),
            ("choices", .number(String(choices))),
            ("ridge", .number(String(ridge))), ("largest_weight", .number(String(largestWeight))), ("rounds", .number(String(result.iterations))),
            ("log_loss", .number(String(format: "%.5f", result.logLoss))), ("start_log_loss", .number(String(format: "%.5f", result.startLogLoss))),
        ]
        let text = result.prior.fileText(about: "Fitted by scout fit-prior from \(rated.count - choices) rated offers and \(choices) choices, "
                                                + "starting from prior \(recommender.prior.version).", fitted: fitted)
        guard FileManager.default.createFile(atPath: output!, contents: Data(text.utf8)) else { throw ValidationError("--output: cannot write \(output!)") }
        FileHandle.standardError.write(Data(String(format: "scout fit-prior: %d rated offers, %d choices, %d rounds, log loss %.4f (start %.4f), wrote %@\n",
                                                   rated.count - choices, choices, result.iterations, result.logLoss, result.startLogLoss, output!).utf8))
    }

    /// Examples from `--emit-examples` lines; exits naming the line of a bad one.
    static func readExamples(_ path: String) throws -> [RatedExample] {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("--examples: cannot read \(path)") }
        var out: [RatedExample] = []
        var number = 0
        let k = EnjoymentFeature.allCases.count
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            number += 1
            if line.isEmpty { continue }
            let shape = "--examples: line \(number) is not {\"x\": [\(k) numbers], \"y\": 0…1, \"pet\", \"category\": 0…5, \"activity\", \"propensity\": 0…1}"
                + " with, for a choice, \"over\": {\"x\", \"category\", \"activity\"}"
            guard let v = try? JSONReader.parse([UInt8](line)), let x = v["x"]?.array, x.count == k, let y = v["y"]?.double, (0...1).contains(y),
                  let pet = v["pet"]?.string, let category = v["category"]?.double, (0...5).contains(category), let activity = v["activity"]?.string,
                  let propensity = v["propensity"]?.double, propensity > 0 && propensity <= 1 else {
                throw ValidationError(shape)
            }
            let values = x.compactMap { $0.double }
            guard values.count == k else { throw ValidationError(shape) }
            var over: RatedExample.PassedOffer?
            if let o = v["over"] {
                guard let ox = o["x"]?.array?.compactMap({ $0.double }), ox.count == k, let oc = o["category"]?.double, (0...5).contains(oc),
                      let oa = o["activity"]?.string else { throw ValidationError(shape) }
                over = .init(features: ox, category: Int(oc), activity: oa)
            }
            out.append(RatedExample(features: values, rating: y, pet: pet, category: Int(category), activity: activity, propensity: propensity,
                                    over: over))
        }
        return out
    }
}
