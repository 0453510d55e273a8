#!/usr/bin/env python3
"""Writes the seed corpora of the `behaviour`, `legacy` and `lsp` fuzz targets.

    Fuzz/tools/input-seeds.py

rewrites the seeds of Fuzz/corpus/{behaviour,legacy,lsp}.tar.xz: each archive is unpacked
(Fuzz/tools/corpus.sh), the files at its top are replaced, its campaign/ inputs kept, and it is
packed again.
"""
import json
import os
import random
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CORPUS = os.path.join(ROOT, "Fuzz", "tools", "corpus.sh")


def write(target, files):
    folder = subprocess.run([CORPUS, "unpack", target], check=True, stdout=subprocess.PIPE, text=True).stdout.strip()
    for name in os.listdir(folder):
        if os.path.isfile(os.path.join(folder, name)):
            os.remove(os.path.join(folder, name))
    for index, content in enumerate(files):
        data = content if isinstance(content, bytes) else content.encode()
        with open(os.path.join(folder, "seed-%03d" % index), "wb") as handle:
            handle.write(data)
    subprocess.run([CORPUS, "pack", target], check=True)


# behaviour: the example, the test files of SimulateBehaviourTests, every key and its bounds.
with open(os.path.join(ROOT, "Examples", "review.behaviour.json")) as handle:
    example = handle.read()
behaviour = [
    example,
    '{"events": {"export": 1, "purchase": 0.2}}',
    '{"facts": {"plan": {"free": 0.7, "pro": "30%"}}}',
    '{"releaseEvery": 7, "sessionsPerDay": 2, "answers": {"rate": 1, "decline": 0, "later": 0}, "heavyShare": "50%"}',
    '{\n  "events": {"purchase": "often", "": 1},\n  "facts": {"plan": {"free": 0.7, "pro": 0.2}, "seats": 3},\n'
    '  "releaseEvry": 30,\n  "sessionsPerDay": 0,\n  "answers": {"rate": 0.5, "decline": 0.4, "ltr": 0.1}\n}',
    '{"events": {"purchase": 0.2,}}',
    "{}", "[]", "null", '""', "1", '{"events": {}}', '{"facts": {}}', '{"answers": {}}',
    '{"releaseEvery": 0}', '{"releaseEvery": 3650}', '{"releaseEvery": 3651}', '{"releaseEvery": 1.5}',
    '{"releaseEvery": 1e3}', '{"sessionsPerDay": 1}', '{"sessionsPerDay": 20}', '{"sessionsPerDay": 20.000001}',
    '{"sessionsPerDay": 1e400}', '{"events": {"export": 20, "share": 0}}', '{"events": {"export": -0}}',
    '{"heavyShare": 0, "heavyOpenRate": 1, "lightOpenRate": "0%", "badSessions": "100%"}',
    '{"heavyShare": 1, "heavyOpenRate": 1, "lightOpenRate": 1, "badSessions": 1, "sessionsPerDay": 20,'
    ' "events": {"export": 20, "purchase": 20, "share": 20}}',
    '{"badSessions": "1e2%"}', '{"badSessions": "-0%"}', '{"badSessions": "nan%"}', '{"badSessions": "inf%"}',
    '{"answers": {"rate": 0.5, "decline": 0.5, "later": 0}}', '{"answers": {"rate": "33.3%", "later": "66.7%"}}',
    '{"answers": {"rate": 0.6, "decline": 0.6}}',
    '{"facts": {"crashed_this_session": {"true": 1}}}', '{"facts": {"crashed_this_session": {"yes": 1}}}',
    '{"facts": {"plan": {"pro": 0.1, "team": 0.2, "free": 0.7}}}', '{"facts": {"plan": {"pro": 0.3333333, "a": 0.3333333, "b": 0.3333334}}}',
    '{"facts": {"seats": {"3": 1}}}', '{"facts": {"plan": {"free": 1}, "days": {"1": 1}}}',
    '{"events": {"\\u0000": 1, "a\\"b": 2}}', '{"events": {"export": 1, "export": 2}}',
]
write("behaviour", behaviour)

# legacy: byte streams (see Fuzz/legacy.swift): version choice, clock, source count, then key/value pairs.
rng = random.Random(15)
legacy = [bytes([v, c, s]) for v, c, s in [(0, 0, 4), (1, 0, 4), (2, 1, 4), (3, 2, 0), (4, 3, 1), (5, 4, 2), (6, 0, 3)]]
for _ in range(33):
    legacy.append(bytes(rng.randrange(256) for _ in range(rng.randrange(4, 80))))
write("legacy", legacy)


# lsp: sessions framed as clients send them, and broken streams.
def frame(body, header=None):
    data = body.encode()
    return ((header or "Content-Length: %d\r\n\r\n") % len(data)).encode() + data


def rpc(method, params=None, ident=None):
    message = {"jsonrpc": "2.0", "method": method}
    if ident is not None:
        message["id"] = ident
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":"))


doc = {"uri": "file:///a.policy"}
with open(os.path.join(ROOT, "Examples", "review.policy")) as handle:
    policy = handle.read()
initialize = rpc("initialize", {"capabilities": {"textDocument": {"completion": {"completionItem": {"snippetSupport": True}}}}}, 1)
open_doc = rpc("textDocument/didOpen", {"textDocument": dict(doc, languageId="policy", version=1, text="ask when dayz > 1\n")})
open_review = rpc("textDocument/didOpen", {"textDocument": dict(doc, languageId="policy", version=1, text=policy)})
change = rpc("textDocument/didChange", {"textDocument": dict(doc, version=2), "contentChanges": [
    {"range": {"start": {"line": 0, "character": 9}, "end": {"line": 0, "character": 13}}, "text": "days"}]})
change_all = rpc("textDocument/didChange", {"textDocument": doc, "contentChanges": [{"text": "never x when rated\n"}]})
big_version = rpc("textDocument/didOpen", {"textDocument": dict(doc, version=9223372036854775807, text="ask when days > 1\n")})
position = {"textDocument": doc, "position": {"line": 0, "character": 10}}
requests = [
    rpc("textDocument/hover", position, 2), rpc("textDocument/completion", position, 3),
    rpc("textDocument/definition", position, 4), rpc("textDocument/references", dict(position, context={"includeDeclaration": True}), 5),
    rpc("textDocument/documentSymbol", {"textDocument": doc}, 6), rpc("textDocument/formatting", {"textDocument": doc, "options": {"tabSize": 2}}, 7),
    rpc("textDocument/codeAction", {"textDocument": doc, "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 5}}, "context": {"diagnostics": []}}, 8),
]
shutdown = rpc("shutdown", None, 9)
exit_ = rpc("exit")
close = rpc("textDocument/didClose", {"textDocument": doc})
lsp = [
    b"".join(frame(m) for m in [initialize, open_doc, shutdown, exit_]),
    b"".join(frame(m) for m in [initialize, open_review] + requests + [close, shutdown, exit_]),
    b"".join(frame(m) for m in [initialize, open_doc, change, change_all] + requests[:2]),
    b"".join(frame(m) for m in [initialize, big_version, change_all]),
    frame(exit_), frame(initialize), frame(open_doc), frame(shutdown),
    frame(initialize, "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: %d\r\n\r\n"),
    frame(initialize, "content-length:%d\r\n\r\n"),
    b"Content-Length: x\r\n\r\n" + frame(initialize),
    b"garbage\r\n\r\n" + frame(initialize),
    b"Content-Length: 99999999999999\r\n\r\n" + frame(initialize),
    b"Content-Length: 3\r\n\r\n{}}" + frame(exit_),
    b"Content-Length: 2\r\n\r\n[]", b"Content-Length: 4\r\n\r\nnull", b"Content-Length: 0\r\n\r\n",
    b"Content-Length: 5\r\n\r\n{\"a\"", b"Content-Type: x\r\n\r\n" + frame(shutdown),
    b"Content-Length:" + b" " * 4100 + b"\r\n\r\n",
    b"Content-Length: 2\r\nX-Padding: " + b"x" * 4100 + b"\r\n\r\n{}",
    b"Content-Length: 10\r\n\r\n{\xff\xfe}" + frame(exit_),
    frame(rpc("textDocument/hover", position)), frame(rpc("unknown/method", {}, 1)),
    frame(json.dumps({"jsonrpc": "2.0", "id": 1, "result": None})), frame(json.dumps({"jsonrpc": "2.0", "id": "x", "method": "shutdown"})),
    frame(rpc("textDocument/hover", {"textDocument": {"uri": "\ud800"}, "position": {"line": 0, "character": 0}}, 99)),
    b"Content-Length: 2\r\n\r\n{}Content-Length: 2\r\n\r\n{}",
    b"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}}",
]
write("lsp", lsp)
