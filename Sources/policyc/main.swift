#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import PolicyCLI

exit(PolicyCLI.run(Array(CommandLine.arguments.dropFirst()), io: SystemIO()))
