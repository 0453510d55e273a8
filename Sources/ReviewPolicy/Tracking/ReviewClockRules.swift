/// How the review facts behave when the device clock moves: the rules the review runtime
/// (``ReviewManager``, ``ReviewTracker``) follows and what they guarantee.
///
/// This is the one statement of the rules. `policyc facts --format markdown` prints it as the
/// "Clocks" section of the review facts reference (docs/facts.md, generated); the reliability
/// tests (`ReliabilityClockTests`, `ReliabilityClockPropertyTests`) check the runtime against it.
package enum ReviewClockRules {
  /// The section's title in the reference page: "Clocks" (so links to `facts.md#clocks` hold).
  package static let title = "Clocks"

  /// The rules and their guarantees, as Markdown paragraphs and lists (no heading).
  package static let markdown = """
    Device clocks go backwards and jump ahead (a user changes the date, a device
    boots with a wrong clock). The review facts are defined so that a clock change
    can neither cause a burst of prompts nor lock a user out for longer than the
    policy's own waits. The review runtime (`ReviewManager`, `ReviewTracker`)
    remembers the device clock at its latest call that recorded something
    (`clockHighWater` in the state; a prompt check that asks nothing and the
    read-only checks record nothing); "a jump back" below is a call whose `now`
    is before that instant.

    - A recorded instant later than `now` counts as `now`: `first_use`,
      `install_date`, `first_session`, `last_prompt`, `last_reminder`,
      `last_decline`, `last_rating` and `last_bad_session` are never after `now`,
      so `since(x)` is never negative.
    - Waits run again from a jump back. The instants a wait counts down from (a
      prompt, reminder, decline, rating or bad session) that lie after `now` are
      moved back to `now` in the stored state at the first call that sees the
      clock behind them, so after a jump back the policy's waits (`since(x) >=
      8w`) run from that moment, never from the future instant, and never less.
    - Day counts never decrease. At a jump back by `j`, the start instants
      (`first_use`, `install_date`, `first_session`) are moved `j` earlier, so
      `days`, `total_days` and `since` of a start instant keep the value they
      had at the last call that recorded something before the jump, and then
      grow with the clock. A jump ahead raises them, and they keep the raised
      value once the clock is set right. `days` and `first_use` start again only
      at a new version. The facts read without recording (`wouldAsk`,
      `currentFacts`) apply the same move; such a read while the clock is later
      than every recorded call sees the days as of its clock, and after a jump
      back the counts go on from the last recorded call instead.
    - A negative elapsed time is zero: `days` and `total_days` are never
      negative.
    - `prompts_within(d)` counts the prompts at instants after `now - d`,
      including those stamped after `now`, so a jump back cannot make recent
      prompts disappear from the window.
    - Counts (`uses`, `events`, `sessions`, `prompts` and their `total_`
      forms) are never derived from the clock, so no clock change lowers them
      (per-version counts start again only at a new version).

    What this guarantees, in real time (time as it passes, whatever the device
    clock says):

    - No burst. A wait of `w` (`since(last_prompt) >= w`, or from a reminder,
      decline or rating) keeps two events at least `w` apart in real time, less
      the sum of the clock's jumps ahead between them. With no jump ahead the
      full wait holds; each jump ahead can bring a prompt forward by at most its
      own size.
    - No lockout. Once the clock is set right, a wait of `w` that started before
      ends at most `w` of real time after the later of its event and the first
      call that saw the right clock. A threshold on a day count (`days >= 30`) is
      postponed by a jump back by at most the real time between the last call
      that recorded something before the jump and the first call after it (the
      moment the clock changed is not known), and never by a jump ahead.
    """
}
