import Testing

@testable import PolicyCore

@Suite("FNV-1a")
struct FNV1aTests {
  @Test("the published 64-bit FNV-1a test vectors; feeding in pieces equals hashing at once")
  func vectors() {
    #expect(FNV1a.hash([UInt8]()) == 0xcbf2_9ce4_8422_2325)
    #expect(FNV1a.hash("a".utf8) == 0xaf63_dc4c_8601_ec8c)
    #expect(FNV1a.hash("foobar".utf8) == 0x8594_4171_f739_67e8)
    var pieces = FNV1a()
    pieces.feed("foo".utf8)
    pieces.feed("bar".utf8)
    #expect(pieces.value == FNV1a.hash("foobar".utf8))
  }
}
