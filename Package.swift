// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "ReviewPolicy",
  platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
  products: [
    .library(name: "PolicyCore", targets: ["PolicyCore"]),
    .library(name: "ReviewPolicy", targets: ["ReviewPolicy"]),
    .library(name: "PolicyCLI", targets: ["PolicyCLI"]),
    .executable(name: "policyc", targets: ["policyc"]),
  ],
  targets: [
    // The language: lexer, parser, checker, compiler and evaluator. Pure: no Foundation, no I/O.
    .target(name: "PolicyCore"),
    // The review vocabulary (standard fact schema) and, later, the runtime.
    .target(name: "ReviewPolicy", dependencies: ["PolicyCore"]),
    // Every policyc command as a testable function.
    .target(name: "PolicyCLI", dependencies: ["PolicyCore", "ReviewPolicy"]),
    .executableTarget(name: "policyc", dependencies: ["PolicyCLI"]),
    // Benchmarks against hand-written Swift: `swift run -c release policy-bench`.
    .executableTarget(name: "policy-bench", dependencies: ["PolicyCore", "ReviewPolicy", "PolicyCLI", "AllocationCounter"]),
    // A simulated user driving a ReviewManager: `swift run review-demo`.
    .executableTarget(name: "review-demo", dependencies: ["ReviewPolicy"], path: "Examples/Demo"),
    // Counts heap allocations on Linux (interposes malloc); test support only.
    .target(name: "AllocationCounter", path: "Tests/AllocationCounter"),
    // Reliability checks that need a real process or a release build: `swift run -c release review-stress kill-test`.
    .executableTarget(name: "review-stress", dependencies: ["ReviewPolicy", "ReliabilitySupport"]),
    // The stress workload and hostile-update corpus shared by the reliability tests and review-stress.
    .target(name: "ReliabilitySupport", dependencies: ["PolicyCore", "ReviewPolicy"], path: "Tests/ReliabilitySupport"),
    .testTarget(name: "PolicyCoreTests", dependencies: ["PolicyCore", "AllocationCounter"]),
    .testTarget(name: "ReviewPolicyTests", dependencies: ["ReviewPolicy", "ReliabilitySupport"]),
    .testTarget(
      name: "PolicyCLITests", dependencies: ["PolicyCLI", "PolicyCore", "ReviewPolicy"], exclude: ["Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
