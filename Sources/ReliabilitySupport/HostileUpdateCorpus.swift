// The hostile policy updates, shared by the reliability tests and `review-stress updates`.
// It imports no test framework.

import PolicyCore

/// One hostile update: what it is, its text, and a diagnostic code it must produce (if one is certain).
public struct HostileUpdate: Sendable {
  /// What it is.
  public var name: String
  /// The update's text.
  public var source: String
  /// A code among its diagnostics, when the language fixes which one.
  public var code: DiagnosticCode?
}

/// Broken and adversarial policy updates, none of which may replace a running policy.
public enum HostileUpdateCorpus {
  /// The running update every hostile one tries to replace.
  public static let goodUpdate = "ask updated when uses >= 1"

  /// `count` copies of `text`.
  static func times(_ text: String, _ count: Int) -> String {
    String(repeating: text, count: count)
  }

  /// The corpus: deep nesting, huge literals, unknown facts, type errors, 10 MB of text, a
  /// megabyte of `(`, 100,000 rules, what invalid UTF-8 becomes in a `String`, NUL bytes, and
  /// other things a remote-config channel can deliver.
  public static let all: [HostileUpdate] = {
    var corpus: [HostileUpdate] = []
    // An update over the update limit is rejected by its size alone (PC100), before its own
    // problem is looked at; `policyc` meets these shapes' own errors under the file limits.
    func add(_ name: String, _ source: String, _ code: PolicyCoreCode? = nil) {
      let expected = source.utf8.count > HostileShapes.updateLimit ? PolicyCoreCode.fileTooLarge : code
      corpus.append(HostileUpdate(name: name, source: source, code: expected?.code))
    }
    let megabyte = 1 << 20
    // Deep nesting.
    add(
      "100,000 nested parentheses", "ask when " + times("(", 100_000) + "uses > 1" + times(")", 100_000),
      .nestingTooDeep)
    add("a megabyte of `(`", times("(", megabyte))
    add("ask when + a megabyte of `(`", "ask when " + times("(", megabyte), .nestingTooDeep)
    add("a megabyte of `)`", "ask when uses > 1" + times(")", megabyte))
    add("200,000 nested `not`", "ask when " + times("not ", 200_000) + "declined")
    add("500,000 unary minus signs", "ask when uses > " + times("-", 500_000) + "1")
    add("100,000 nested lists", "ask when uses in " + times("[", 100_000) + times("]", 100_000))
    add("100,000 nested calls", "ask when " + times("events(", 100_000) + "\"x\"" + times(")", 100_000) + " > 1")
    add(
      "100,000 nested `??` groups",
      "ask when " + times("(average_score(3) ?? ", 100_000) + "0" + times(")", 100_000) + " > 1")
    add(
      "a 300,000-term `and` chain ending in an unknown name", "ask when " + times("uses > 1 and ", 150_000) + "karma",
      .unknownName)
    // Huge literals.
    add("a 400-digit integer", "ask when uses > " + times("9", 400), .integerTooLarge)
    add("a megabyte-long integer", "ask when uses > " + times("7", megabyte), .integerTooLarge)
    add("a number with a megabyte of decimals", "ask when session_score > 0." + times("0", megabyte) + "1")
    add("a duration of 10^23 days", "ask when since(last_prompt) > 99999999999999999999999d")
    add("a 1,000-digit duration", "ask when since(last_prompt) > " + times("9", 1000) + "w")
    add("a 10,000-digit version", "ask when version > v" + times("9", 10_000))
    add("a version of 10,000 parts", "ask when version > v1" + times(".1", 10_000))
    add("a megabyte string literal", "ask when events(\"" + times("x", megabyte) + "\") > 1", .stringTooLong)
    add("a megabyte identifier", "ask when " + times("a", megabyte) + " > 1", .identifierTooLong)
    add("a list of 100,000 elements", "ask when uses in [" + times("1, ", 99_999) + "1]", .listTooLong)
    add("an unterminated megabyte string", "ask when events(\"" + times("y", megabyte), .unterminatedString)
    // Unknown facts and functions.
    add("an unknown fact", "ask when karma > 3", .unknownName)
    add("a misspelt fact", "ask when dayz >= 30", .unknownName)
    add("an unknown function", "ask when happiness(3) > 1", .unknownFunction)
    add("a function with too many arguments", "ask when events(\"x\", 2) > 1", .wrongArgumentCount)
    add("an unknown type", "fact plan: strin\nask when plan == \"pro\"", .unknownType)
    add("a fact that redefines a standard one", "fact days: string\nask when days == \"x\"")
    add("a `let` used before it is defined", "let a = b\nlet b = a\nask when a")
    // Type errors.
    add("a bare int", "ask when uses", .notBoolean)
    add("an int plus a bool", "ask when uses + true > 1", .invalidOperands)
    add("a duration compared with an int", "ask when since(last_prompt) >= 30", .incomparableTypes)
    add("a version compared with a number", "ask when version >= 2.1", .incomparableTypes)
    add("an unguarded absent value", "ask when last_prompt_version < v2.0", .unguardedAbsentValue)
    add("division by zero", "ask when uses / 0 > 1")
    add("a list of mixed types", "ask when uses in [1, \"a\", v2]")
    // Size.
    add("10 MB of comment", "ask when uses > 1 # " + times("x", 10 * megabyte), .fileTooLarge)
    add("10 MB of valid rules", times("ask when uses > 1\n", 10 * megabyte / 18), .fileTooLarge)
    add("10 MB of newlines", times("\n", 10 * megabyte), .fileTooLarge)
    add("10 MB of NUL bytes", times("\u{0}", 10 * megabyte), .fileTooLarge)
    add("100,000 rules", times("ask when uses>0\n", 100_000), .tooManyDeclarations)
    add("100,000 rules with one name", times("ask x when uses>0\n", 100_000))
    add("70,000 `let`s", times("let a = 1\n", 70_000) + "ask when uses > 0", .tooManyDeclarations)
    add("100,000 lines with an unknown name each", times("ask when x\n", 100_000), .tooManyErrors)
    add("a 2 MB line of unknown names", "ask when " + times("zz and ", 290_000) + "zz", .tooManyErrors)
    add("a 2 MB line of emoji", "ask when " + times("😀", 500_000), .unexpectedCharacter)
    // What invalid UTF-8 becomes in a Swift String (U+FFFD), and NUL bytes.
    let invalid: [UInt8] = [0xFF, 0xFE, 0xC0, 0xAF, 0xED, 0xA0, 0x80, 0xF8, 0x88, 0x80, 0x80, 0x80]
    add(
      "invalid UTF-8 before a rule", String(decoding: invalid + Array("ask when uses > 1".utf8), as: UTF8.self),
      .unexpectedCharacter)
    add(
      "invalid UTF-8 inside a name",
      String(decoding: Array("ask when us".utf8) + invalid + Array("es > 1".utf8), as: UTF8.self))
    add(
      "a megabyte of invalid UTF-8", String(decoding: [UInt8](repeating: 0xFF, count: megabyte), as: UTF8.self),
      .fileTooLarge)
    add("a NUL after a rule", "ask when uses > 1\u{0}", .unexpectedCharacter)
    add("a NUL before a rule", "\u{0}ask when uses > 1", .unexpectedCharacter)
    add("a NUL inside a name", "ask when us\u{0}es > 1")
    add("a byte-order mark and a right-to-left override", "\u{FEFF}ask when uses > 1 \u{202E}")
    // Things a remote-config channel delivers by mistake.
    add("the JSON envelope instead of the policy", "{\"policy\": \"ask when uses > 1\", \"version\": 3}")
    add(
      "an HTML error page",
      "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1></body></html>")
    add(
      "a truncated policy", "never answered when declined or rated\nask loyal when days >= 14 and (uses >= 10 or",
      .expectedExpression)
    add("a policy in another language", "si jours >= 30 et utilisations >= 20 alors demander")
    return corpus
  }()
}
