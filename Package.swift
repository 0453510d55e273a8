// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ReviewPolicy",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  products: [
    .library(name: "PolicyCore", targets: ["PolicyCore"]),
    .library(name: "ReviewPolicy", targets: ["ReviewPolicy"]),
    .library(name: "ReviewMigration", targets: ["ReviewMigration"]),
    .library(name: "PolicyAnalysis", targets: ["PolicyAnalysis"]),
    .library(name: "ReviewAnalysis", targets: ["ReviewAnalysis"]),
    .library(name: "PolicyTools", targets: ["PolicyTools"]),
    .executable(name: "policyc", targets: ["policyc"]),
  ],
  targets: [
    // The language: lexer, parser, checker, compiler and evaluator. Pure: no Foundation, no I/O.
    .target(name: "PolicyCore"),
    // The analyzer (rules that never hold, equivalence, witnesses) and the formatter: what tools
    // need and an app does not link.
    .target(name: "PolicyAnalysis", dependencies: ["PolicyCore"]),
    // The review vocabulary (standard fact schema) and the runtime.
    .target(name: "ReviewPolicy", dependencies: ["PolicyCore"]),
    // The one-time import of what Appirater, Armchair, UAAppReviewManager, RateOurAppHelper and
    // ReviewKit stored (ReviewManager.Configuration.legacySources): only an app that switches from
    // one of them links it.
    .target(name: "ReviewMigration", dependencies: ["PolicyCore", "ReviewPolicy"]),
    // The review etiquette checks (PC320-PC322) and the analysis of a PolicyEnvironment, over
    // PolicyAnalysis; an app that wants the analyzer's warnings on updates links it.
    .target(name: "ReviewAnalysis", dependencies: ["PolicyCore", "PolicyAnalysis", "ReviewPolicy"]),
    // The tools as a library: simulation, test files and their runner, facts files and the language
    // server are public (PolicyTools.docc); JSON, report formats and fixing are `package`.
    .target(name: "PolicyTools", dependencies: ["PolicyCore", "PolicyAnalysis", "ReviewPolicy", "ReviewAnalysis"]),
    // The policyc commands: argument parsing, help and printing over PolicyTools (package-internal:
    // not a product, its declarations are `package`).
    .target(
      name: "PolicyCLI",
      dependencies: ["PolicyCore", "PolicyAnalysis", "ReviewPolicy", "ReviewAnalysis", "PolicyTools"]),
    .executableTarget(name: "policyc", dependencies: ["PolicyCLI"]),
    // Benchmarks against hand-written Swift: `swift run -c release policy-bench`.
    .executableTarget(
      name: "policy-bench",
      dependencies: ["PolicyCore", "ReviewPolicy", "PolicyTools", "PolicyCLI", "AllocationCounter"]),
    // A simulated user driving a ReviewManager: `swift run review-demo`.
    .executableTarget(name: "review-demo", dependencies: ["PolicyCore", "ReviewPolicy"], path: "Examples/Demo"),
    // Counts heap allocations on Linux (interposes malloc); for the allocation tests and the benchmark.
    .target(name: "AllocationCounter"),
    // Reliability checks that need a real process or a release build: `swift run -c release review-stress kill-test`.
    .executableTarget(
      name: "review-stress", dependencies: ["PolicyCore", "ReviewPolicy", "ReviewAnalysis", "ReliabilitySupport"]),
    // The stress workload and hostile-update corpus shared by the reliability tests and review-stress.
    .target(name: "ReliabilitySupport", dependencies: ["PolicyCore", "ReviewPolicy"]),
    .testTarget(name: "PolicyCoreTests", dependencies: ["PolicyCore", "PolicyAnalysis", "AllocationCounter"]),
    .testTarget(
      name: "ReviewPolicyTests",
      dependencies: ["ReviewPolicy", "ReviewMigration", "ReviewAnalysis", "PolicyAnalysis", "ReliabilitySupport"]),
    .testTarget(
      name: "PolicyToolsTests",
      dependencies: ["PolicyTools", "PolicyCLI", "PolicyCore", "PolicyAnalysis", "ReviewPolicy", "ReviewAnalysis"]),
    .testTarget(
      name: "PolicyCLITests",
      dependencies: ["PolicyCLI", "PolicyTools", "PolicyCore", "PolicyAnalysis", "ReviewPolicy", "ReviewAnalysis"],
      exclude: ["Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
