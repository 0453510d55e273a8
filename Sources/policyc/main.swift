import PolicyCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

exit(PolicyCLI.run(Array(CommandLine.arguments.dropFirst()), io: SystemIO()))
