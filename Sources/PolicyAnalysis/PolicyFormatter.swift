import PolicyCore

/// Prints a policy in the one canonical layout, keeping every comment.
///
/// - One declaration per line, single spaces around operators, `fact name: type`,
///   `let name = value`, `ask name when condition`; literals as written (integers
///   in plain decimal), parentheses as written.
/// - A rule or `let` whose line would be longer than ``lineWidth``, or that has
///   comments inside, puts its `and`/`or` conditions one per line, indented by two,
///   each after its operator: `and uses >= 20`. A parenthesized chain that does not
///   fit opens a nested block. Trailing comments of one declaration line up.
/// - Blank lines between declarations and comments are kept, at most one in a row;
///   line endings are LF and the file ends with one newline.
///
/// Formatting is idempotent, and the output parses to the same tree
/// (`SyntaxDump` equal), which ``format(_:)`` verifies before returning.
public struct PolicyFormatter: Sendable {
  /// The widest line before a declaration is broken.
  public var lineWidth: Int

  /// Creates a formatter.
  public init(lineWidth: Int = 100) {
    self.lineWidth = max(40, lineWidth)
  }

  /// Why a file could not be formatted.
  public enum Failure: Error, Sendable, Hashable {
    /// The file has syntax errors; formatting needs a tree.
    case syntaxErrors
    /// The formatted text would not mean the same (a bug in the formatter); nothing should be written.
    case meaningChanged
  }

  /// The formatted text of `parsed`.
  package func format(_ parsed: ParsedPolicy) -> Result<String, Failure> {
    guard !parsed.diagnostics.hasErrors else { return .failure(.syntaxErrors) }
    var printer = Printer(source: parsed.source, width: lineWidth)
    let text = printer.print(parsed.file)
    let reparsed = Parser.parse(SourceFile(path: parsed.source.path, text: text))
    guard !reparsed.diagnostics.hasErrors, SyntaxDump.dump(reparsed.file) == SyntaxDump.dump(parsed.file) else {
      return .failure(.meaningChanged)
    }
    return .success(text)
  }

  /// Formats source text; see ``format(_:)``.
  public func format(_ source: SourceFile) -> Result<String, Failure> {
    format(Parser.parse(source))
  }
}

/// The layout engine behind ``PolicyFormatter``.
private struct Printer {
  let source: SourceFile
  let width: Int
  var lines: [String] = []

  init(source: SourceFile, width: Int) {
    self.source = source
    self.width = width
  }

  /// One output line: code, and the comments that trail it.
  struct Line {
    var code: String
    var comment: String?
  }

  mutating func print(_ file: PolicyFile) -> String {
    let comments = file.comments
    var used = Array(repeating: false, count: comments.count)
    // The previous item's end, to keep blank lines.
    var previousEnd: Int?

    func commentIndices(in range: Range<Int>) -> [Int] {
      comments.indices.filter { range.contains(comments[$0].range.start) }
    }

    var output: [String] = []
    func separate(before start: Int) {
      if let end = previousEnd, hasBlankLine(from: end, to: start) { output.append("") }
    }

    var commentIndex = 0
    for (position, declaration) in file.declarations.enumerated() {
      let range = declaration.range
      // A trailing comment belongs to the last declaration before it on its line, so the
      // comment of `ask when a ask when b  # c` trails `b` only and is printed once.
      let nextStart =
        position + 1 < file.declarations.count ? file.declarations[position + 1].range.start : Int.max
      // Standalone comments before this declaration.
      while commentIndex < comments.count && comments[commentIndex].range.start < range.start {
        if !used[commentIndex] {
          separate(before: comments[commentIndex].range.start)
          output.append(text(of: comments[commentIndex]))
          previousEnd = comments[commentIndex].range.end
          used[commentIndex] = true
        }
        commentIndex += 1
      }
      // Comments inside the declaration, and the one trailing its last line.
      var inner = commentIndices(in: range.start..<range.end)
      let lastLine = source.lineIndex(of: max(range.end - 1, range.start))
      var end = range.end
      if let trailing = comments.indices.first(where: {
        comments[$0].range.start >= range.end && comments[$0].range.start < nextStart && comments[$0].isTrailing
          && source.lineIndex(of: comments[$0].range.start) == lastLine
      }) {
        inner.append(trailing)
        end = comments[trailing].range.end
      }
      for index in inner { used[index] = true }
      separate(before: range.start)
      let printed = layout(declaration, comments: inner.map { comments[$0] })
      output += render(printed)
      previousEnd = end
    }
    for index in comments.indices where !used[index] {
      separate(before: comments[index].range.start)
      output.append(text(of: comments[index]))
      previousEnd = comments[index].range.end
    }
    return output.isEmpty ? "" : output.joined(separator: "\n") + "\n"
  }

  /// Whether the source has an empty line between `start` and `end`.
  func hasBlankLine(from start: Int, to end: Int) -> Bool {
    guard start < end else { return false }
    var newlines = 0
    for byte in source.bytes[start..<min(end, source.bytes.count)] {
      if byte == UInt8(ascii: "\n") {
        newlines += 1
        if newlines >= 2 { return true }
      } else if byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") && byte != UInt8(ascii: "\r") {
        newlines = 0
      }
    }
    return false
  }

  func text(of comment: Comment) -> String {
    var text = source.text(in: comment.range)
    // Trailing blanks go; so does a carriage return left at the end, which the newline after
    // it would turn into a CRLF line end (and the next run would trim what preceded it).
    while let last = text.unicodeScalars.last, last == " " || last == "\t" || last == "\r" {
      text.unicodeScalars.removeLast()
    }
    return text
  }

  /// Lines with trailing comments aligned one column after the longest code line that has one.
  func render(_ printed: [Line]) -> [String] {
    let commented = printed.filter { $0.comment != nil && !$0.code.isEmpty }
    let column = commented.map(\.code.count).max().map { $0 + 2 } ?? 0
    return printed.map { line in
      guard let comment = line.comment else { return line.code }
      if line.code.isEmpty { return comment }
      let padding = line.code.count < column ? column - line.code.count : 2
      return line.code + String(repeating: " ", count: padding) + comment
    }
  }

  // MARK: - Declarations

  func layout(_ declaration: Declaration, comments: [Comment]) -> [Line] {
    switch declaration {
    case .fact(let fact):
      let type = fact.type.map { $0.rawValue + (fact.isOptional ? "?" : "") } ?? source.text(in: fact.typeRange)
      let defaultValue = fact.defaultValue.map { " = " + inline($0) } ?? ""
      return [Line(code: "fact \(fact.name.name): \(type)\(defaultValue)", comment: joined(comments))]
    case .let(let definition):
      return layout(header: "let \(definition.name.name) =", definition.value, comments: comments, indent: 2)
    case .rule(let rule):
      if rule.isBare { return layout(header: nil, rule.condition, comments: comments, indent: 0) }
      let header = "\(rule.kind.rawValue)\(rule.name.map { " " + $0.name } ?? "") when"
      return layout(header: header, rule.condition, comments: comments, indent: 2)
    case .events(let declaration):
      // Each name as written: a word stays a word, a quoted name keeps its quotes and escapes.
      let names = declaration.names.map { source.text(in: $0.range) }.joined(separator: ", ")
      return [Line(code: "event \(names)", comment: joined(comments))]
    }
  }

  /// A declaration: `header expr` on one line when it fits and has no comments inside,
  /// else `header` then the conditions one per line.
  func layout(header: String?, _ expr: Expr, comments: [Comment], indent: Int) -> [Line] {
    let inline = self.inline(expr)
    let oneLine = (header.map { $0 + " " } ?? "") + inline
    let inside = comments.filter { $0.range.start < expr.range.end }
    if inside.isEmpty && oneLine.count <= width {
      return [Line(code: oneLine, comment: joined(comments))]
    }
    guard case .logical = expr.kind else {
      // Not a chain: one line, with any comments after it.
      return [Line(code: oneLine, comment: joined(comments))]
    }
    var lines: [Line] = header.map { [Line(code: $0, comment: nil)] } ?? []
    lines += broken(expr, indent: indent, prefix: "", comments: comments)
    // When every comment ends up after the last condition, nothing needs the break: the comments
    // trail the one line, as they do when the formatted text is formatted again (idempotence).
    if oneLine.count <= width, lines.dropLast().allSatisfy({ $0.comment == nil }) {
      return [Line(code: oneLine, comment: joined(comments))]
    }
    return lines
  }

  /// A chain, one operand per line; comments go with the operand they follow.
  func broken(_ expr: Expr, indent: Int, prefix: String, comments: [Comment]) -> [Line] {
    guard case .logical(let op, let operands) = expr.kind else {
      return [Line(code: String(repeating: " ", count: indent) + prefix + inline(expr), comment: joined(comments))]
    }
    var lines: [Line] = []
    for (index, operand) in operands.enumerated() {
      // Full-line comments since the previous operand lead this one; comments inside it, and
      // trailing comments after it (up to the next operand, or the end), go with it.
      let previousEnd = index == 0 ? Int.min : operands[index - 1].range.end
      let nextStart = index + 1 < operands.count ? operands[index + 1].range.start : Int.max
      let leading = comments.filter {
        !$0.isTrailing && $0.range.start >= previousEnd && $0.range.start < operand.range.start
      }
      let rest = comments.filter { comment in
        let start = comment.range.start
        if start >= operand.range.start && start < operand.range.end { return true }
        if start >= operand.range.end && start < nextStart { return comment.isTrailing || index + 1 == operands.count }
        return index == 0 && start < operand.range.start && comment.isTrailing
      }
      for comment in leading {
        lines.append(Line(code: "", comment: String(repeating: " ", count: indent) + text(of: comment)))
      }
      let operatorPrefix = index == 0 ? prefix : op.rawValue + " "
      let pad = String(repeating: " ", count: indent)
      let candidate = pad + operatorPrefix + inline(operand)
      let operandComments = rest.filter { $0.range.start < operand.range.end }
      if case .parenthesized(let inner) = operand.kind, case .logical = inner.kind,
        candidate.count > width || !operandComments.isEmpty
      {
        lines.append(Line(code: pad + operatorPrefix + "(", comment: nil))
        lines += broken(inner, indent: indent + 2, prefix: "", comments: operandComments)
        lines.append(Line(code: pad + ")", comment: joined(rest.filter { $0.range.start >= operand.range.end })))
      } else if case .logical = operand.kind, !operandComments.isEmpty {
        // A chain of the tighter operator (`c and o` in `d or c and o`) with a comment inside: its
        // conditions go one per line too, indented under its first, so the comment stays where
        // it was (on one line, it would move past `o`, and the next format would join the lines).
        var nested = broken(operand, indent: indent + 2, prefix: "", comments: rest)
        if nested.dropLast().allSatisfy({ $0.comment == nil }) {
          // Every comment ends up after its last condition: the chain stays on one line with
          // them, as the next format (seeing them after the chain) would print it.
          lines.append(Line(code: candidate, comment: joined(rest)))
          continue
        }
        if let first = nested.first {
          nested[0].code = pad + operatorPrefix + String(first.code.dropFirst(indent + 2))
        }
        lines += nested
      } else {
        lines.append(Line(code: candidate, comment: joined(rest)))
      }
    }
    return lines
  }

  func joined(_ comments: [Comment]) -> String? {
    comments.isEmpty ? nil : comments.map(text(of:)).joined(separator: " ")
  }

  // MARK: - Expressions

  func inline(_ expr: Expr) -> String {
    switch expr.kind {
    case .literal(.int(let value)): String(value)
    case .literal: source.text(in: expr.range)
    case .name(let name): name.name
    case .call(let name, let arguments): name.name + "(" + arguments.map(inline).joined(separator: ", ") + ")"
    case .has(let name): "has " + name.name
    case .list(let elements): "[" + elements.map(inline).joined(separator: ", ") + "]"
    case .unary(.not, let operand): "not " + inline(operand)
    case .unary(.negate, let operand): "-" + inline(operand)
    case .binary(let op, let lhs, let rhs): inline(lhs) + " " + op.rawValue + " " + inline(rhs)
    case .logical(let op, let operands): operands.map(inline).joined(separator: " \(op.rawValue) ")
    case .parenthesized(let inner): "(" + inline(inner) + ")"
    case .error: source.text(in: expr.range)
    }
  }
}
