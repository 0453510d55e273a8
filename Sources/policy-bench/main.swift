// policy-bench: policy evaluation measured side by side with hand-written Swift, in one run.
//
//   swift run -c release policy-bench [--iterations N] [--only W3,W6] [--json | --markdown]
//
// Each workload reports the median time per operation over N samples and, where there is
// one, the ratio to a hand-written baseline measured in the same process on the same data.
// `--markdown` prints docs/performance-figures.md, the one place the documentation keeps figures.

import Foundation

var samples = 15
/// How the results are printed.
enum OutputFormat {
  case text
  case json
  case markdown
}

var outputFormat = OutputFormat.text
/// The workloads to run (`--only W3,W6`), by number; nil runs every one.
var only: Set<String>?
var arguments = Array(CommandLine.arguments.dropFirst())
while !arguments.isEmpty {
  let argument = arguments.removeFirst()
  switch argument {
  case "--iterations":
    guard let value = arguments.first.flatMap({ Int($0) }), value >= 1, value <= 1000 else {
      FileHandle.standardError.write(Data("policy-bench: error: --iterations needs a number from 1 to 1000\n".utf8))
      exit(2)
    }
    samples = value
    arguments.removeFirst()
  case "--only":
    let names = (arguments.first ?? "").split(separator: ",").map { $0.uppercased() }
    guard !names.isEmpty,
      names.allSatisfy({ $0.count == 2 && $0.hasPrefix("W") && ("1"..."9").contains($0.dropFirst()) })
    else {
      FileHandle.standardError.write(
        Data("policy-bench: error: --only needs workloads such as W3,W6 (W1 to W9)\n".utf8))
      exit(2)
    }
    only = Set(names)
    arguments.removeFirst()
  case "--json":
    outputFormat = .json
  case "--markdown":
    outputFormat = .markdown
  case "--help", "-h":
    print("USAGE: swift run -c release policy-bench [--iterations N] [--only W3,W6] [--json | --markdown]")
    exit(0)
  default:
    FileHandle.standardError.write(Data("policy-bench: error: unknown argument `\(argument)`\n".utf8))
    exit(2)
  }
}

#if DEBUG
  FileHandle.standardError.write(
    Data("policy-bench: warning: a debug build; run with `-c release` for real figures\n".utf8))
#endif

let loadAtStart = Measure.loadAverage()
let examples = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Examples")
let workloads = Workloads(samples: samples, examples: examples)
var results: [BenchResult] = []
let selected = only
/// Whether workload `name` (W1 to W9) runs.
func runs(_ name: String) -> Bool { selected?.contains(name) ?? true }
do {
  if runs("W1") { results.append(try workloads.w1()) }
  if runs("W2") {
    results.append(try workloads.w2("armchair.policy", closure: Workloads.armchairClosure()))
    results.append(try workloads.w2("reviewkit.policy", closure: Workloads.reviewKitClosure()))
  }
  if runs("W3") {
    results += try workloads.w3Examples()
    results.append(try workloads.w3Large())
  }
  if runs("W4") { results += try workloads.w4() }
  if runs("W5") { results.append(try workloads.w5()) }
  if runs("W6") { results += try workloads.w6() }
  if runs("W7") { results.append(try workloads.w7()) }
  if runs("W8") { results.append(try workloads.w8()) }
  if runs("W9") { results.append(try workloads.w9()) }
} catch {
  FileHandle.standardError.write(Data("policy-bench: error: \(error)\n".utf8))
  exit(1)
}
let peak = Measure.peakMemoryKiB()

func format(_ value: Double) -> String {
  value >= 100 ? String(format: "%.0f", value) : String(format: "%.1f", value)
}

switch outputFormat {
case .json:
  var rows: [String] = []
  for result in results {
    var fields = [
      "\"name\":\"\(result.name)\"", "\"value\":\(format(result.value))", "\"unit\":\"\(result.unit)\"",
      "\"target\":\"\(result.target)\"", "\"met\":\(result.met)",
    ]
    if let baseline = result.baseline {
      fields.append("\"baseline\":\(format(baseline))")
      fields.append("\"ratio\":\(String(format: "%.2f", result.value / baseline))")
    }
    if let allocations = result.allocations { fields.append("\"allocationsPerOperation\":\(allocations)") }
    rows.append("{" + fields.joined(separator: ",") + "}")
  }
  print("{\"samples\":\(samples),\"peakMemoryKiB\":\(peak),\"results\":[" + rows.joined(separator: ",") + "]}")
case .markdown:
  print(
    MarkdownReport(results: results, samples: samples, peakMemoryKiB: peak, loadAverage: loadAtStart).text,
    terminator: "")
case .text:
  print("policy-bench: median of \(samples) samples per workload\n")
  func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
  }
  print(pad("workload", 48) + pad("median", 20) + pad("baseline", 13) + pad("ratio", 8) + pad("allocs", 8) + "target")
  for result in results {
    let value = "\(format(result.value)) \(result.unit)"
    let baseline = result.baseline.map { "\(format($0)) \(result.unit)" } ?? "-"
    let ratio = result.baseline.map { String(format: "%.2fx", result.value / $0) } ?? "-"
    let allocations = result.allocations.map { String(format: "%.0f", $0) } ?? "-"
    print(
      pad(result.name, 48) + pad(value, 20) + pad(baseline, 13) + pad(ratio, 8) + pad(allocations, 8)
        + result.target + (result.met ? "  ok" : "  MISSED"))
  }
  print("\npeak memory: \(peak / 1024) MiB")
}
