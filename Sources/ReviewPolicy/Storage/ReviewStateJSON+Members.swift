import PolicyCore

extension ReviewStateJSON {
  /// One top-level member of a stored ``ReviewState``: its key, whether it may be absent, and how
  /// it is compared, written, read and cleared. The codec writes and reads the state member by
  /// member from ``stateMembers``, so the stored counts and flags declared in
  /// ``ReviewSchema/declarations`` need no code here.
  struct Member: Sendable {
    /// Whether and how a member may be absent.
    enum Presence: Sendable, Hashable {
      /// Always written; a whole state without it is not this decoder's to read.
      case required
      /// Written when not nil (a patch writes a removed one as `null`); absent means nil.
      case optional
      /// Written when not 0 or false (a patch writes the change); absent means 0 or false.
      case omittedWhenZero
    }

    /// The key, as the state's `Codable` names it.
    let name: String
    /// The key as written: quoted, then a colon.
    let key: [UInt8]
    /// Whether and how it may be absent.
    let presence: Presence
    /// Whether two states hold the same value.
    let isSame: @Sendable (ReviewState, ReviewState) -> Bool
    /// Whether a state's value is written (see ``Presence``).
    let isPresent: @Sendable (ReviewState) -> Bool
    /// Writes a state's value.
    let write: @Sendable (inout Writer, ReviewState) -> Void
    /// Reads the value under the key into a state (a mismatch sets the reader's `failed`).
    let read: @Sendable (inout Reader, String, inout ReviewState) -> Void
    /// Sets a state's value to what absence means.
    let clear: @Sendable (inout ReviewState) -> Void

    @inline(never)
    init(
      _ name: String, _ presence: Presence, isSame: @escaping @Sendable (ReviewState, ReviewState) -> Bool,
      isPresent: @escaping @Sendable (ReviewState) -> Bool = { _ in true },
      write: @escaping @Sendable (inout Writer, ReviewState) -> Void,
      read: @escaping @Sendable (inout Reader, String, inout ReviewState) -> Void,
      clear: @escaping @Sendable (inout ReviewState) -> Void = { _ in }
    ) {
      self.name = name
      self.key = [UInt8(ascii: "\"")] + Array(name.utf8) + [UInt8(ascii: "\""), UInt8(ascii: ":")]
      self.presence = presence
      self.isSame = isSame
      self.isPresent = isPresent
      self.write = write
      self.read = read
      self.clear = clear
    }

    /// A required member at `path`, written by `write` and read by `read`.
    static func required<T: Equatable & Sendable>(
      _ name: String, _ path: WritableKeyPath<ReviewState, T> & Sendable,
      write: @escaping @Sendable (inout Writer, T) -> Void, read: @escaping @Sendable (inout Reader, String) -> T
    ) -> Member {
      Member(
        name, .required, isSame: { $0[keyPath: path] == $1[keyPath: path] },
        write: { write(&$0, $1[keyPath: path]) }, read: { $2[keyPath: path] = read(&$0, $1) })
    }

    /// An optional member at `path`.
    static func optional<T: Equatable & Sendable>(
      _ name: String, _ path: WritableKeyPath<ReviewState, T?> & Sendable,
      write: @escaping @Sendable (inout Writer, T) -> Void, read: @escaping @Sendable (inout Reader, String) -> T
    ) -> Member {
      Member(
        name, .optional, isSame: { $0[keyPath: path] == $1[keyPath: path] },
        isPresent: { $0[keyPath: path] != nil },
        write: { writer, state in
          if let value = state[keyPath: path] { write(&writer, value) }
        },
        read: { $2[keyPath: path] = read(&$0, $1) }, clear: { $0[keyPath: path] = nil })
    }

    /// A count at `path`.
    static func count(
      _ name: String, _ path: WritableKeyPath<ReviewState, Int> & Sendable, coding: ReviewFactDeclaration.Coding
    ) -> Member {
      switch coding {
      case .always:
        return required(name, path, write: { $0.int($1) }, read: { $0.int($1) })
      case .omittedWhenZero:
        return Member(
          name, .omittedWhenZero, isSame: { $0[keyPath: path] == $1[keyPath: path] },
          isPresent: { $0[keyPath: path] != 0 }, write: { $0.int($1[keyPath: path]) },
          read: { $2[keyPath: path] = $0.int($1) }, clear: { $0[keyPath: path] = 0 })
      }
    }

    /// A flag at `path`.
    static func flag(
      _ name: String, _ path: WritableKeyPath<ReviewState, Bool> & Sendable, coding: ReviewFactDeclaration.Coding
    ) -> Member {
      switch coding {
      case .always:
        return required(name, path, write: { $0.bool($1) }, read: { $0.bool($1) })
      case .omittedWhenZero:
        return Member(
          name, .omittedWhenZero, isSame: { $0[keyPath: path] == $1[keyPath: path] },
          isPresent: { $0[keyPath: path] }, write: { $0.bool($1[keyPath: path]) },
          read: { $2[keyPath: path] = $0.bool($1) }, clear: { $0[keyPath: path] = false })
      }
    }

    /// An optional instant at `path`, as milliseconds.
    static func instant(_ name: String, _ path: WritableKeyPath<ReviewState, Timestamp?> & Sendable) -> Member {
      optional(name, path, write: { $0.int64($1.millisecondsSince1970) }, read: { $0.instant($1) })
    }

    /// An optional string at `path`.
    static func string(_ name: String, _ path: WritableKeyPath<ReviewState, String?> & Sendable) -> Member {
      optional(name, path, write: { $0.string($1) }, read: { $0.string($1) })
    }

    /// An optional session at `path`.
    static func session(_ name: String, _ path: WritableKeyPath<ReviewState, SessionRecord?> & Sendable) -> Member {
      optional(name, path, write: { $0.session($1) }, read: { $0.session($1) })
    }

    /// Counts by name at `path`.
    static func counts(_ name: String, _ path: WritableKeyPath<ReviewState, [String: Int]> & Sendable) -> Member {
      required(name, path, write: { $0.counts($1) }, read: { $0.counts($1) })
    }
  }

  /// Every top-level member of a stored state, in key order (the order Foundation's sorted-keys
  /// encoder writes): the stored counts and flags of ``ReviewSchema/declarations`` with the rest.
  static let stateMembers: [Member] = {
    var members: [Member] = [
      .string("build", \.build),
      .instant("clockHighWater", \.clockHighWater),
      .session("currentSession", \.currentSession),
      // Left out while 0 (as the state's `Codable` does), so a state never reset is written as before.
      .count("epoch", \.epoch, coding: .omittedWhenZero),
      .counts("eventsByName", \.eventsByName),
      .instant("firstSession", \.firstSession),
      .instant("firstUse", \.firstUse),
      .required("format", \.format, write: { $0.int($1) }, read: { $0.int($1) }),
      .required(
        "importedLegacy", \.importedLegacy, write: { writer, names in writer.array(names) { $0.string($1) } },
        read: { reader, key in
          reader.array(key) { value in
            if case .string(let name) = value { return name }
            return nil
          }
        }),
      .instant("installDate", \.installDate),
      .optional("installSeed", \.installSeed, write: { $0.int64($1) }, read: { Int64($0.int($1)) }),
      .session("lastBadSession", \.lastBadSession),
      .instant("lastDecline", \.lastDecline),
      .instant("lastRating", \.lastRating),
      .instant("lastReminder", \.lastReminder),
      .string("policyReceivedUnder", \.policyReceivedUnder),
      .string("policySource", \.policySource),
      .string("previousVersion", \.previousVersion),
      .string("recordInstall", \.recordInstall),
      .required(
        "promptHistory", \.promptHistory, write: { writer, prompts in writer.array(prompts) { $0.prompt($1) } },
        read: { $0.array($1, ReviewStateJSON.prompt) }),
      .required(
        "recentSessions", \.recentSessions,
        write: { writer, sessions in writer.array(sessions) { $0.session($1) } },
        read: { $0.array($1, ReviewStateJSON.session) }),
      .required(
        "responses", \.responses, write: { writer, responses in writer.array(responses) { $0.response($1) } },
        read: { $0.array($1, ReviewStateJSON.response) }),
      .counts("totalEventsByName", \.totalEventsByName),
      .string("version", \.version),
    ]
    for count in StoredFacts.counts { members.append(.count(count.key, count.path, coding: count.coding)) }
    for flag in StoredFacts.flags { members.append(.flag(flag.key, flag.path, coding: flag.coding)) }
    // Sorted by the UTF-8 bytes of the keys, as Foundation sorts them.
    return members.stablySorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
  }()
}
