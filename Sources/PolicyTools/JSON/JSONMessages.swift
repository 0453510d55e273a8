import PolicyCore

/// Every error the JSON parser reports, one factory per message, so the wording lives here:
/// `JSONDocument.swift` writes no message of its own.
///
/// Each is a `PC401` diagnostic (``PolicyToolsCode/invalidJSON``): a facts, test or behaviour
/// file reports it as it is (``JSONParser/Failure/diagnostic``), and the language server sends
/// its message in a JSON-RPC parse error. `found` arguments describe what the parser met, as
/// the parser writes it: `` `x` ``, `byte 0x01`, `end of file`. Ranges are where the caret goes:
/// the byte the parser stopped at, unless a factory says otherwise.
enum JSONMessages {
  // MARK: - Values

  /// `PC401`: something after the file's one value; the range is its first byte.
  static func trailingContent(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "unexpected \(found) after the JSON value", at: range,
      help: ["a file holds one JSON value; remove what follows it"])
  }

  /// `PC401`: the file ends where a value should start.
  static func missingValue(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "expected a JSON value, found the end of the file", at: range)
  }

  /// `PC401`: a value that starts with a single quote.
  static func singleQuote(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "unexpected `'`", at: range, help: ["JSON strings use double quotes"])
  }

  /// `PC401`: `found` where a value should start.
  static func expectedValue(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "expected a JSON value, found \(found)", at: range,
      help: ["values are objects, arrays, strings in double quotes, numbers, true, false or null"])
  }

  /// `PC401`: a word that starts like the literal `word` (`true`, `false`, `null`) but is not it.
  static func expectedLiteral(_ word: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "expected `\(word)`", at: range,
      help: ["JSON literals are lowercase: true, false, null"])
  }

  /// `PC401`: arrays and objects nested deeper than ``JSONParser/maximumDepth``.
  static func nestingTooDeep(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "JSON nests more than \(JSONParser.maximumDepth) levels deep", at: range)
  }

  // MARK: - Objects and arrays

  /// `PC401`: `found` where an object's key should be; `beforeClosingBrace` when it is the `}`
  /// after a trailing comma.
  static func expectedKey(found: String, beforeClosingBrace: Bool, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "expected a key in double quotes, found \(found)", at: range,
      help: beforeClosingBrace ? ["remove the comma before `}`: JSON has no trailing commas"] : [])
  }

  /// `PC401`: the key `key` a second time in one object; the range is the second key.
  static func duplicateKey(_ key: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "duplicate key `\(key)`", at: range, help: ["each key may appear once in an object"])
  }

  /// `PC401`: `found` after a key, instead of `:`.
  static func expectedColon(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "expected `:` after the key, found \(found)", at: range)
  }

  /// `PC401`: `found` after an object's member, instead of `,` or `}`.
  static func expectedObjectSeparator(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "expected `,` or `}` in the object, found \(found)", at: range)
  }

  /// `PC401`: `]` right after a comma.
  static func trailingCommaInArray(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "unexpected `]` after `,`", at: range,
      help: ["remove the comma: JSON has no trailing commas"])
  }

  /// `PC401`: `found` after an array's element, instead of `,` or `]`.
  static func expectedArraySeparator(found: String, at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "expected `,` or `]` in the array, found \(found)", at: range)
  }

  // MARK: - Numbers

  /// `PC401`: a `-` not followed by a digit.
  static func missingDigitAfterMinus(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "expected a digit after `-`", at: range)
  }

  /// `PC401`: a number that starts with `0` followed by a digit; the range is that digit.
  static func leadingZero(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "numbers cannot have leading zeros", at: range)
  }

  /// `PC401`: a `.` in a number not followed by a digit.
  static func missingFractionDigit(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "expected a digit after `.`", at: range)
  }

  /// `PC401`: an exponent (`e`, `E`, with its sign) without digits.
  static func missingExponentDigit(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "expected a digit in the exponent", at: range)
  }

  // MARK: - Strings

  /// `PC401`: a string the file ends in; the range is the string from its opening quote.
  static func unterminatedString(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "string is missing its closing `\"`", at: range,
      help: ["add `\"` at the end of the string"])
  }

  /// `PC401`: a line break inside a string.
  static func lineBreakInString(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "string is missing its closing `\"` before the end of the line", at: range,
      help: ["strings end on the line where they start"])
  }

  /// `PC401`: a control character other than a line break inside a string.
  static func controlCharacter(at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "control character in a string", at: range,
      help: ["write it as an escape such as `\\n` or `\\u0000`"])
  }

  /// `PC401`: `byte` starts no valid UTF-8 sequence.
  static func invalidUTF8(_ byte: UInt8, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "invalid UTF-8 byte \(JSONParser.hex(byte))", at: range,
      help: ["save the file as UTF-8"])
  }

  // MARK: - Escapes

  /// `PC401`: a backslash at the end of the file.
  static func unfinishedEscape(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "unfinished escape at the end of the file", at: range)
  }

  /// `PC401`: a backslash followed by `character`, which starts no escape; the range is `character`.
  static func unknownEscape(_ character: Character, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON, "unknown escape `\\\(character)`", at: range,
      help: ["the escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX"])
  }

  /// `PC401`: `\u` not followed by 4 hexadecimal digits; the range is the first that is not one.
  static func expectedHexDigits(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "expected 4 hexadecimal digits after `\\u`", at: range)
  }

  /// `PC401`: the high surrogate `\u` `value` not followed by a `\u` escape.
  static func missingLowSurrogate(after value: UInt32, at range: SourceRange) -> Diagnostic {
    Diagnostic(
      PolicyToolsCode.invalidJSON,
      "a high surrogate `\\u\(String(value, radix: 16))` must be followed by a low surrogate", at: range)
  }

  /// `PC401`: a high surrogate followed by a `\u` escape that is not a low surrogate.
  static func invalidLowSurrogate(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "invalid low surrogate", at: range)
  }

  /// `PC401`: a low surrogate with no high surrogate before it.
  static func loneLowSurrogate(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "a low surrogate without a high surrogate", at: range)
  }

  /// `PC401`: a `\u` escape that is no Unicode scalar.
  static func invalidEscape(at range: SourceRange) -> Diagnostic {
    Diagnostic(PolicyToolsCode.invalidJSON, "invalid escape", at: range)
  }
}
