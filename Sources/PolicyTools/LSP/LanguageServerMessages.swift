/// Every error the language server answers with, one factory per message, so the wording lives
/// here: `LanguageServer.swift`, `LanguageServer+Features.swift` and `MessageFramer.swift`
/// write no message of their own.
///
/// JSON-RPC errors carry the protocol's code (-32700 parse error, -32600 invalid request,
/// -32601 method not found, -32602 invalid params, -32002 server not initialized) rather than
/// a diagnostic code; the diagnostics the server publishes are those of `policyc check` and
/// `policyc test`, written by their own factories.
enum LanguageServerMessages {
  // MARK: - JSON-RPC errors

  /// -32700: a body that is not JSON, or a broken header (`detail` says what is wrong).
  static func parseError(_ detail: String) -> LanguageServer.RequestError {
    LanguageServer.RequestError(code: -32700, message: "Parse error: " + detail)
  }

  /// -32600: a message that is not a JSON object.
  static var messageNotAnObject: LanguageServer.RequestError {
    LanguageServer.RequestError(code: -32600, message: "Invalid Request: a message is a JSON object")
  }

  /// -32600: a message that is neither a request, a notification nor a response: it has no `method`.
  static var missingMethod: LanguageServer.RequestError {
    LanguageServer.RequestError(code: -32600, message: "Invalid Request: no `method`")
  }

  /// -32600: a message whose `id` is neither a number, a string nor null (`kind` names what it is).
  static func invalidIdentifier(kind: String) -> LanguageServer.RequestError {
    LanguageServer.RequestError(
      code: -32600, message: "Invalid Request: `id` is \(kind); it must be a number or a string")
  }

  /// -32600: a request after `shutdown`.
  static var shutDown: LanguageServer.RequestError {
    LanguageServer.RequestError(code: -32600, message: "Invalid Request: the server is shut down")
  }

  /// -32002: a request before `initialize`.
  static var notInitialized: LanguageServer.RequestError {
    LanguageServer.RequestError(code: -32002, message: "Server not initialized: send `initialize` first")
  }

  /// -32601: a request for `method`, which the server does not answer.
  static func methodNotFound(_ method: String) -> LanguageServer.RequestError {
    LanguageServer.RequestError(code: -32601, message: "Method not found: `\(method)`")
  }

  /// -32602: a request without the parameter `name` (a path such as `textDocument.uri`).
  static func missingParameter(_ name: String) -> LanguageServer.RequestError {
    LanguageServer.RequestError(code: -32602, message: "Invalid params: `\(name)` is required")
  }

  // MARK: - Framing (the detail of a parse error, and a log line)

  /// A header block without `Content-Length`.
  static let missingContentLength = "message header has no Content-Length"

  /// A `Content-Length` of `text`, not a decimal number.
  static func invalidContentLength(_ text: String) -> String {
    "Content-Length `\(text)` is not a number"
  }

  /// A body of `size` bytes, over ``MessageFramer/maximumBodySize``.
  static func bodyTooLarge(size: Int) -> String {
    "message body of \(size) bytes is over the limit of \(MessageFramer.maximumBodySize)"
  }

  /// A header block over ``MessageFramer/maximumHeaderSize`` bytes.
  static let headerTooLong = "message header is longer than \(MessageFramer.maximumHeaderSize) bytes"
}
