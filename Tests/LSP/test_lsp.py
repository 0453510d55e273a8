"""End-to-end test of `policyc lsp` with a real LSP client (pytest-lsp).

Run by Scripts/test-lsp.sh, which builds policyc and installs pytest-lsp in a virtual
environment; POLICYC names the executable under test.
"""

import os
import pathlib

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

POLICYC = os.environ.get("POLICYC", str(pathlib.Path(__file__).parents[2] / ".build" / "debug" / "policyc"))
URI = "file:///tmp/policyc-lsp-test/review.policy"
# A policy that respects review etiquette, so the analyzer has nothing to say once the typo is fixed.
PRELUDE = (
    "never answered when declined or rated\n"
    "never too_soon when since(last_prompt) < 8w\n"
    "never yearly_cap when prompts_within(365d) >= 3\n"
)
TYPO = PRELUDE + "ask when usess >= 20 and days >= 30\n"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=[POLICYC, "lsp"]))
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        types.InitializeParams(capabilities=types.ClientCapabilities(), root_uri="file:///tmp/policyc-lsp-test")
    )
    yield
    await lsp_client.shutdown_session()


def open_document(client: LanguageClient, text: str, version: int = 1) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=URI, language_id="policy", version=version, text=text)
        )
    )


async def diagnostics_for(client: LanguageClient) -> list[types.Diagnostic]:
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    return client.diagnostics[URI]


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Applies LSP text edits (ASCII text here, so UTF-16 columns are characters)."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def offset(position: types.Position) -> int:
        return offsets[position.line] + position.character

    for edit in sorted(edits, key=lambda e: offset(e.range.start), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


@pytest.mark.asyncio
async def test_typo_diagnostic_and_quick_fix(client: LanguageClient):
    open_document(client, TYPO)
    diagnostics = await diagnostics_for(client)
    assert [d.code for d in diagnostics] == ["PC201"], diagnostics
    typo = diagnostics[0]
    assert typo.message.startswith("unknown name `usess`")
    assert typo.severity == types.DiagnosticSeverity.Error
    assert (typo.range.start.line, typo.range.start.character, typo.range.end.character) == (3, 9, 14)

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=URI),
            range=typo.range,
            context=types.CodeActionContext(diagnostics=[typo]),
        )
    )
    assert actions, "no quick fix offered for the typo (the compiler's did-you-mean fix-it)"
    fix = next(a for a in actions if isinstance(a, types.CodeAction) and "uses" in a.title)
    assert fix.kind == types.CodeActionKind.QuickFix
    fixed = apply_edits(TYPO, fix.edit.changes[URI])
    assert fixed == PRELUDE + "ask when uses >= 20 and days >= 30\n"

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=URI, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixed)],
        )
    )
    assert list(await diagnostics_for(client)) == []


@pytest.mark.asyncio
async def test_hover_fact(client: LanguageClient):
    open_document(client, "ask when days >= 30 and since(last_prompt) > 8w\n")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(line=0, character=10))
    )
    assert hover is not None
    assert "fact days: int" in hover.contents.value
    assert hover.range.start.character == 9 and hover.range.end.character == 13


@pytest.mark.asyncio
async def test_complete_fact_name(client: LanguageClient):
    open_document(client, "ask when da\n")
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=URI), position=types.Position(line=0, character=11))
    )
    items = result.items if isinstance(result, types.CompletionList) else result
    labels = [item.label for item in items]
    assert "days" in labels, labels
    assert all(label.startswith("da") for label in labels), labels
