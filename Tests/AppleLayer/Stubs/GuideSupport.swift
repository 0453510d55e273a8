// swift-format-ignore-file: AllPublicDeclarationsHaveDocumentation

// What the iOS guide's Apple snippets (docs/ios.md, ```swift apple) use from the rest of the guide, compiled
// with each snippet. `DarkroomReviews.makeManager(presenter:bundle:)` is the guide's first ```swift checked
// snippet (compiled for real by the test target; AppleLayerStubTests checks this signature); `EditorView`
// is the app's own view, which the guide leaves to the reader.
import Foundation
import ReviewPolicy
import SwiftUI

enum DarkroomReviews {
  struct NotBuilt: Error {}
  static func makeManager(presenter: any ReviewPresenter, bundle: Bundle = .main) throws -> ReviewManager {
    throw NotBuilt()
  }
}

struct EditorView: View {
  let onExport: () -> Void
  var body: some View { EmptyView() }
}
