#!/usr/bin/env python3
"""Writes the seed corpora of the `facts` and `testfile` fuzz targets from Examples and the tests.

Run from the repository root by Fuzz/tools/make-seeds.sh, with the folder the corpora are unpacked
in (Fuzz/tools/corpus.sh: .build-fuzz/committed-corpus): writes FOLDER/facts and FOLDER/testfile.
Deterministic: rerunning rewrites the same files.
"""
import json, os, re, sys, textwrap

if len(sys.argv) != 2:
    sys.exit('usage: Fuzz/tools/text-seeds.py FOLDER  (the unpacked corpora; see Fuzz/tools/make-seeds.sh)')
C = sys.argv[1]


def w(d, name, text):
    os.makedirs(os.path.join(C, d), exist_ok=True)
    with open(os.path.join(C, d, name), 'w') as f:
        f.write(text)


# facts: every case's facts object in Examples/review.test.json (every other one with the file's now)
ex = json.load(open('Examples/review.test.json'))
for i, case in enumerate(ex['cases']):
    if 'facts' in case:
        facts = dict(case['facts'])
        if i % 2 == 0:
            facts = {'now': case.get('now', ex.get('now'))} | facts
        w('facts', f'review-case-{i:02d}.json', json.dumps(facts) + '\n')

# facts: the facts files of EvalCommandTests (raw strings #"{...}"#)
n = 0
for m in re.finditer(r'#"(\{.*?|\[.*?)"#', open('Tests/PolicyCLITests/EvalCommandTests.swift').read()):
    n += 1
    w('facts', f'eval-tests-{n:02d}.json', m.group(1))

# facts: for the fixed policy of Fuzz/facts.swift: every type, nulls, keyed members, odd spellings
fixed = [
    {"now": "2026-03-01T12:00:00Z", "plan": "pro", "seats": 4, "score": 8.25, "grace": "1d 12h",
     "trial_end": "2026-02-20T00:00:00Z", "build": "v2.1", "beta": False, "days": 30, "uses": 20,
     "events(\"export\")": 4, "average_score(3)": 80.5, "version": "3.1", "last_prompt": "2025-12-01T00:00:00Z",
     "last_reminder": None, "prompts_within(365d)": 1, "install_date": "2025-01-01", "total_events(\"share\")": 2,
     "session_score": 2.5, "last_prompt_version": "3.0", "declined": False, "rated": False},
    {"plan": "free", "score": -0.000001, "grace": "0s", "beta": True, "seats": None, "trial_end": None, "build": None},
    {"now": "1970-01-01T00:00:00Z", "plan": "", "score": 9223372036854.775807, "grace": "9223372036854775807ms",
     "beta": False, "days": 9223372036854775807, "uses": -9223372036854775808, "version": "v1.0.1"},
    {"now": "2026-03-01", "plan": "team", "score": 7.5, "grace": "52w 6d 23h 59m 59s", "beta": False,
     "prompts_within(8760h)": 3, "events( \"export\" )": 3, "average_score(03)": 1, "since_trial": "30d"},
    {"plan": "pro", "score": 1e3, "grace": "1d", "beta": False, "build": "v99999999999.0.0.1", "version": "2.0 (45)"},
    {"plan": "\u00e9\u0000\"\\", "score": 0, "grace": "-1d", "beta": 1, "days": "3", "trial_end": "tomorrow"},
]
for i, facts in enumerate(fixed):
    w('facts', f'fixed-policy-{i}.json', json.dumps(facts, ensure_ascii=(i % 2 == 0)) + '\n')
w('facts', 'empty-object.json', '{}\n')
w('facts', 'nested.json',
  '{"now": "2026-03-01T12:00:00Z", "plan": {"a": [1, 2.5e-3, true, null, "\\u00e9\\ud83d\\ude00"]}}\n')

# testfile: the example, and the test files of TestCommandTests
w('testfile', 'review.test.json', open('Examples/review.test.json').read())
src = open('Tests/PolicyCLITests/TestCommandTests.swift').read()
n = 0
for m in re.finditer(r'"""\n(.*?)"""', src, re.S):
    body = textwrap.dedent(m.group(1))
    if body.lstrip().startswith('{'):
        n += 1
        w('testfile', f'test-command-{n}.json', body)
for m in re.finditer(r'#"(\{.*?)"#', src):
    n += 1
    w('testfile', f'test-command-{n}.json', m.group(1))

# testfile: every history step form, in one case and one case per step; and the steps one per line
steps = ["launch", "foreground", "session", "end session", "event", "event export", "event \"two words\" x 3",
         "action 30", "action -50 bad", "action 1.5 bad prompt", "prompt", "prompt -> rate", "prompt -> decline",
         "prompt -> remind", "prompt -> feedback", "prompt -> dismiss", "prompt -> unknown", "wait 3d",
         "wait 1d 12h", "update 3.2", "launch x 21 every 2d", "event export x 100000 every 1s",
         "session x 2 every 52w 6d"]
cases = [{"name": "all steps", "facts": {"plan": "pro", "crashed_this_session": False}, "history": steps,
          "version": "3.1", "start": "2026-01-01T00:00:00Z", "expect": "dont_ask", "prompts": 3}]
cases += [{"name": f"step {i}", "history": [s], "expect": "ask", "deciding": ["loyal", "paying"]}
          for i, s in enumerate(steps)]
w('testfile', 'history-steps.json',
  json.dumps({"policy": "review.policy", "now": "2026-03-01T12:00:00Z", "start": "2025-03-01T12:00:00Z",
              "cases": cases}, indent=1) + '\n')
w('testfile', 'steps-one-per-line.txt', '\n'.join(steps) + '\n')
