// review-stress: reliability checks of ReviewManager that need a real process or a release build.
//
//   review-stress kill-test [--kills N] [--seed S] [--state-file PATH] [--keep] [--unsafe-in-place-store]
//   review-stress stress [--threads T] [--calls C] [--store memory|file]
//   review-stress updates
//   review-stress hostile [--shape NAME] [--sizes A,B] [--timeout S]
//   review-stress shared [--processes P] [--events E] [--kills K] [--seed S]
//   review-stress processes [--processes P] [--kills K] [--seed S]
//   review-stress child <state-file>
//   review-stress writer <state-file> <name> [calls]
//   review-stress controlled-writer <state-file> <name>
//
// `kill-test` starts itself as `child` again and again, kills each child with SIGKILL at a
// random instant while it records events, and checks the state file after every kill. `shared`
// starts several `writer` processes on one state file at once: the totals must be exact, and
// stay exact when the writers are killed. `processes` kills one of several recording writers at a
// time, at random instants and at chosen points of a save, while the others go on.
// `stress` runs the concurrency workload of the reliability tests at full size; `updates` times
// the reliability tests' hostile policy updates in this build.
// Exit status: 0 all checks held, 1 a check failed, 2 usage or setup errors.

import Foundation

/// The usage text.
let usage = """
  USAGE: review-stress kill-test [--kills N] [--seed S] [--state-file PATH] [--keep] [--unsafe-in-place-store]
         review-stress stress [--threads T] [--calls C] [--store memory|file]
         review-stress updates
         review-stress hostile [--shape NAME] [--sizes A,B] [--timeout S]
         review-stress shared [--processes P] [--events E] [--kills K] [--seed S]
         review-stress processes [--processes P] [--kills K] [--seed S]
         review-stress child <state-file>
         review-stress writer <state-file> <name> [calls]
         review-stress controlled-writer <state-file> <name>

  kill-test  Starts `review-stress child` N times (default 200) on one state file, kills each
             child with SIGKILL 1-50 ms (seeded) after it is ready, and checks that the file
             loads, that no total went backwards and that at most the event in flight is missing.
             --unsafe-in-place-store makes the children save with a store that rewrites the
             file in place (not atomic): the kill test must then fail.
  stress     T threads (default 8) make C mixed calls each (default 100,000) on one manager;
             the totals must be exact.
  updates    Times each hostile policy update of the reliability tests; each must be rejected.
  hostile    Each hostile update shape of issue 23 (a comment of control characters, blank lines,
             quotes, many ask, never and one-node rules, unset facts, declared events, misspelt
             names) at 64 KiB, 1 MiB and the update limit, each in a child process: a user who
             declined, the update (timed), a relaunch (timed), tracked calls (timed), another
             relaunch. Counts, the answer and the guardrail must survive, within the stated
             times and memory (HostileThresholds); --timeout S kills a child after S s (60).
  shared     P processes (default 4) make E calls each (default 500) on one state file at once:
             every total must be exact. Then K rounds (default 50) kill P recording processes
             with SIGKILL: each one's count must grow by what it reported, or one more.
  processes  P writers (default 4) record into one state file; K times (default 200) one of
             them is killed with SIGKILL while the others go on, and started again. Kills take
             turns: at a random instant, holding the lock, after a whole-file save's temporary
             file is written (before its rename), with the old file renamed aside, and after the
             journal append (before the unlock). After each kill the file loads, no count goes
             back, the killed writer's count is exact to the call in flight; at the end all are.
  writer     Records named events in a shared state file (used by shared).
  controlled-writer
             Records named events until told `stop`; `arm <point>` stops it there (used by processes).
  child      Records significant events in a loop, printing each durable total (used by kill-test).
  """

/// Writes `message` to standard error and exits with status 2.
func usageError(_ message: String) -> Never {
  FileHandle.standardError.write(Data("review-stress: error: \(message)\n\n\(usage)\n".utf8))
  exit(2)
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { usageError("missing command") }
arguments.removeFirst()
switch command {
case "child":
  let inPlace = arguments.count == 2 && arguments[1] == "--unsafe-in-place-store"
  guard arguments.count == 1 || inPlace else { usageError("`child` takes exactly one state file") }
  exit(ChildProcess.run(statePath: arguments[0], inPlace: inPlace))
case "writer":
  exit(WriterProcess.run(arguments: arguments))
case "processes":
  exit(ProcessesCommand(arguments: arguments).run())
case "controlled-writer":
  exit(ControlledWriterProcess.run(arguments: arguments))
case "shared":
  exit(SharedCommand(arguments: arguments).run())
case "kill-test":
  exit(KillTest(arguments: arguments).run())
case "stress":
  exit(StressCommand(arguments: arguments).run())
case "updates":
  exit(UpdatesCommand(arguments: arguments).run())
case "hostile":
  exit(HostileCommand(arguments: arguments).run())
case "hostile-child":
  exit(HostileChild.run(arguments: arguments))
case "hostile-extension":
  exit(HostileExtension.run(arguments: arguments))
case "--help", "-h", "help":
  print(usage)
  exit(0)
default:
  usageError("unknown command `\(command)`")
}
