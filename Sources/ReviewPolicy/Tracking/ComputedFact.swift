/// The standard review facts the binder computes from the state (the stored counts and flags are
/// read through their declarations, ``ReviewFactDeclaration/Source``).
enum ComputedFact: Sendable, CaseIterable {
  case days, firstUse, version, lastReminder, totalDays, installDate, firstSession, previousVersion
  case lastPrompt, lastPromptVersion, sessionsSincePrompt, lastDecline, lastRating
  case sessionScore, sessionBad, lastBadSession, sessionsSinceBad
}
