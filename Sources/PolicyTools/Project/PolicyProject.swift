import Foundation
import PolicyCore
import ReviewPolicy

/// The project file an app keeps beside its policies, `reviewpolicy.json`: what the app
/// declares about itself, which every `policyc` verb and the language server compile its
/// policies with (as a `PolicyEnvironment`).
///
/// ```json
/// { "events": ["export", "purchase"] }
/// ```
///
/// `events` lists the significant event names the app records (the names it passes to
/// `ReviewManager.significantEvent(_:)`, as in `ReviewManager.Configuration.eventNames`); once
/// they are known, a policy that reads or declares another name gets `PC217`. Every key is
/// optional; an empty list, like a missing key, says nothing. Problems are located in the
/// file: invalid JSON is PC401, anything else (a value of the wrong kind, an unknown key, a
/// name given twice) PC402.
///
/// **Discovery.** The project file of a policy is the first `reviewpolicy.json` found in the
/// policy's folder or, going up, in one of the folders above it, up to the root of the file
/// system (``searchPaths(forPolicyAt:currentDirectory:)``); a policy read from standard input
/// starts from the current directory. Without one, a policy is compiled with
/// `PolicyEnvironment.standard`.
public struct PolicyProject: Sendable, Hashable {
  /// The name of the project file: `reviewpolicy.json`.
  public static let fileName = "reviewpolicy.json"
  /// The keys of a project file, in documentation order.
  public static let keys = ["events"]

  /// The path of the file, as it was found (relative paths stay relative).
  public var path: String
  /// The event names the app records, in file order; empty when the file does not say.
  public var eventNames: [String]

  /// Creates a project read from `path`.
  public init(path: String, eventNames: [String]) {
    self.path = path
    self.eventNames = eventNames
  }

  /// The environment the project's policies are compiled with.
  public var environment: PolicyEnvironment { PolicyEnvironment(eventNames: Set(eventNames)) }

  /// What looking for a policy's project file found.
  public enum Lookup: Sendable {
    /// No project file between the policy's folder and the root.
    case notFound
    /// The nearest project file, read.
    case found(PolicyProject)
    /// The nearest project file has problems or cannot be read.
    case failed(Failure)
  }

  /// Why the nearest project file cannot be used.
  public enum Failure: Error, Sendable {
    /// The file has problems, each located in `source`.
    case invalid(source: SourceFile, diagnostics: [Diagnostic])
    /// The file exists but cannot be read, for `reason`.
    case unreadable(path: String, reason: String)

    /// The path of the project file.
    public var path: String {
      switch self {
      case .invalid(let source, _): source.path
      case .unreadable(let path, _): path
      }
    }
  }

  // MARK: - Reading

  /// Reads the project file `source`, or every problem found in it.
  public static func read(_ source: SourceFile) -> Result<PolicyProject, Problems> {
    let root: JSONNode
    switch JSONParser.parse(source) {
    case .success(let node): root = node
    case .failure(let failure):
      return .failure(Problems([failure.diagnostic]))
    }
    guard case .object(let members) = root.value else {
      return .failure(Problems([ProjectFileMessages.notAnObject(root.value.kindName, at: root.range)]))
    }
    var problems: [Diagnostic] = []
    var eventNames: [String] = []
    for member in members {
      switch member.key {
      case "events": eventNames = readEvents(member.value, problems: &problems)
      default:
        let suggestion = EditDistance.suggestion(for: member.key, among: keys)
        problems.append(
          ProjectFileMessages.unknownKey(member.key, suggestion: suggestion, keys: keys, at: member.keyRange))
      }
    }
    guard problems.isEmpty else { return .failure(Problems(problems)) }
    return .success(PolicyProject(path: source.path, eventNames: eventNames))
  }

  /// Reads `events`: a list of distinct, non-empty strings.
  private static func readEvents(_ node: JSONNode, problems: inout [Diagnostic]) -> [String] {
    guard case .array(let elements) = node.value else {
      problems.append(ProjectFileMessages.eventsNotAList(node.value.kindName, at: node.range))
      return []
    }
    var names: [String] = []
    for element in elements {
      guard case .string(let name) = element.value else {
        problems.append(ProjectFileMessages.eventNameNotAString(element.value.kindName, at: element.range))
        continue
      }
      guard !name.isEmpty else {
        problems.append(ProjectFileMessages.emptyEventName(at: element.range))
        continue
      }
      guard !names.contains(name) else {
        problems.append(ProjectFileMessages.duplicateEventName(name, at: element.range))
        continue
      }
      names.append(name)
    }
    return names
  }

  // MARK: - Discovery

  /// The paths where the project file of the policy at `policyPath` may be, nearest first: in
  /// its folder, then in each folder above it up to the root of the file system. A relative
  /// `policyPath` gives relative paths (`reviewpolicy.json`, `../reviewpolicy.json`...), going
  /// up as many folders above `currentDirectory` as it has (`currentDirectory` is absolute; an
  /// empty one stops the search at the current directory). Nil `policyPath` (standard input)
  /// starts from the current directory. `.` and `..` are resolved by their names.
  public static func searchPaths(forPolicyAt policyPath: String?, currentDirectory: String) -> [String] {
    let isAbsolute = policyPath?.hasPrefix("/") ?? false
    var folders: [String] = []
    for part in (policyPath ?? "").split(separator: "/").dropLast() {
      switch part {
      case ".": continue
      case "..":
        if let last = folders.last, last != ".." {
          folders.removeLast()
        } else if !isAbsolute {
          folders.append("..")
        }
      default: folders.append(String(part))
      }
    }
    let levelsAboveCurrent = currentDirectory.split(separator: "/").count
    var paths: [String] = []
    while true {
      let path = (folders + [fileName]).joined(separator: "/")
      paths.append(isAbsolute ? "/" + path : path)
      if let last = folders.last, last != ".." {
        folders.removeLast()
      } else if !isAbsolute && folders.count < levelsAboveCurrent {
        folders.append("..")
      } else {
        return paths
      }
    }
  }

  /// Looks for the project file of the policy at `policyPath` (nil: standard input) in `files`
  /// and reads the nearest one.
  public static func lookup(forPolicyAt policyPath: String?, in files: some PolicyProjectFileSystem) -> Lookup {
    for path in searchPaths(forPolicyAt: policyPath, currentDirectory: files.currentDirectory)
    where files.fileExists(atPath: path) {
      return load(path, from: files)
    }
    return .notFound
  }

  /// Reads the project file at `path` from `files`.
  public static func load(_ path: String, from files: some PolicyProjectFileSystem) -> Lookup {
    let contents: (bytes: [UInt8], size: Int)
    do {
      contents = try files.contents(atPath: path, limit: Limits.maximumFileSize + 1)
    } catch {
      return .failed(.unreadable(path: path, reason: error.reason))
    }
    guard contents.size <= Limits.maximumFileSize else {
      let source = SourceFile(path: path, bytes: Array(contents.bytes.prefix(4096)))
      return .failed(.invalid(source: source, diagnostics: [.fileTooLarge(size: contents.size)]))
    }
    let source = SourceFile(path: path, bytes: contents.bytes)
    switch read(source) {
    case .success(let project): return .found(project)
    case .failure(let problems): return .failed(.invalid(source: source, diagnostics: problems.diagnostics))
    }
  }

  /// The environments of the policies of one run: the one given for all of them (`--events`),
  /// else each policy's project file's, else ``PolicyEnvironment/standard``. Each folder's
  /// project file is looked for and read at most once.
  public struct Finder: Sendable {
    /// The environment of every policy of the run, when one was given (`--events`): project
    /// files are then not looked for.
    public let given: PolicyEnvironment?
    /// The lookups made, by the nearest search path of the policy's folder.
    private var lookups: [String: Lookup] = [:]

    /// A finder that gives every policy `given` when it is not nil, else looks for project files.
    public init(given: PolicyEnvironment? = nil) {
      self.given = given
    }

    /// The project file of the policy at `policyPath` (nil: standard input), as
    /// ``PolicyProject/lookup(forPolicyAt:in:)`` finds it; the same folder is looked at once.
    public mutating func lookup(forPolicyAt policyPath: String?, in files: some PolicyProjectFileSystem) -> Lookup {
      let key = searchPaths(forPolicyAt: policyPath, currentDirectory: files.currentDirectory)[0]
      if let known = lookups[key] { return known }
      let lookup = PolicyProject.lookup(forPolicyAt: policyPath, in: files)
      lookups[key] = lookup
      return lookup
    }

    /// The environment to compile the policy at `policyPath` (nil: standard input) with:
    /// ``given``, else its project file's, else ``PolicyEnvironment/standard``; or why its
    /// project file cannot be used.
    public mutating func environment(
      forPolicyAt policyPath: String?, in files: some PolicyProjectFileSystem
    ) -> Result<PolicyEnvironment, Failure> {
      if let given { return .success(given) }
      switch lookup(forPolicyAt: policyPath, in: files) {
      case .notFound: return .success(.standard)
      case .found(let project): return .success(project.environment)
      case .failed(let failure): return .failure(failure)
      }
    }
  }
}

/// Why a file could not be read, as the operating system says it.
public struct PolicyProjectReadError: Error, Sendable {
  /// The reason, such as "Permission denied".
  public var reason: String

  /// Creates an error.
  public init(reason: String) {
    self.reason = reason
  }
}

/// The files project-file discovery looks at: the file system, or a test's files in memory.
public protocol PolicyProjectFileSystem {
  /// The absolute path of the directory relative paths start from.
  var currentDirectory: String { get }
  /// Whether something other than a directory is at `path`.
  func fileExists(atPath path: String) -> Bool
  /// The bytes of the file at `path`, at most `limit` of them, and the file's size.
  func contents(atPath path: String, limit: Int) throws(PolicyProjectReadError) -> (bytes: [UInt8], size: Int)
}

/// The real file system, through Foundation.
public struct SystemProjectFileSystem: PolicyProjectFileSystem, Sendable {
  /// The file system.
  public init() {}

  /// The process's current directory.
  public var currentDirectory: String { FileManager.default.currentDirectoryPath }

  /// Whether a file (not a directory) is at `path`.
  public func fileExists(atPath path: String) -> Bool {
    var isDirectory: ObjCBool = false
    return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && !isDirectory.boolValue
  }

  /// The first `limit` bytes of the file at `path`, and its size.
  public func contents(atPath path: String, limit: Int) throws(PolicyProjectReadError) -> (bytes: [UInt8], size: Int) {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw PolicyProjectReadError(reason: "the file cannot be opened")
    }
    defer { try? handle.close() }
    do {
      let data = try handle.read(upToCount: limit) ?? Data()
      var size = data.count
      if size == limit, let total = try? handle.seekToEnd() { size = Int(total) }
      return (Array(data), size)
    } catch {
      throw PolicyProjectReadError(reason: "\(error.localizedDescription)")
    }
  }
}
