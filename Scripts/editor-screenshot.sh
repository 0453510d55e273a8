#!/usr/bin/env bash
# Captures docs/images/neovim-lsp.png: Neovim (Debian's `neovim`, headless in tmux) editing a
# policy with Editors/vim highlighting and `policyc lsp` diagnostics. Needs nvim, tmux and
# librsvg's `rsvg-convert`; policyc is built first.
set -euo pipefail
usage() {
  cat <<'USAGE'
usage: Scripts/editor-screenshot.sh [-h | --help]

Captures docs/images/neovim-lsp.png: Neovim editing a policy with policyc lsp diagnostics.
Needs nvim, tmux and rsvg-convert.

environment:
  POLICYC   the policyc to run (default: builds it with `swift build`)
USAGE
}
for argument in "$@"; do
  case "$argument" in
    -h|--help) usage; exit 0 ;;
    -*) echo "editor-screenshot.sh: error: unknown option \`$argument\`" >&2; usage >&2; exit 2 ;;
    *) echo "editor-screenshot.sh: error: unexpected argument \`$argument\`" >&2; usage >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then export PATH="/opt/swift/usr/bin:$PATH"; fi
for tool in nvim tmux rsvg-convert; do
  command -v "$tool" >/dev/null || { echo "editor-screenshot: error: $tool is needed" >&2; exit 1; }
done
if [ -z "${POLICYC:-}" ]; then
  swift build --product policyc
  POLICYC="$(swift build --show-bin-path)/policyc"
fi
policyc="$POLICYC"
work="$(mktemp -d)"
trap 'tmux kill-session -t policy-shot 2>/dev/null || true; rm -rf "$work"' EXIT
cat > "$work/review.policy" <<'POLICY'
# Ask engaged users, once a version, never after an answer.
fact plan: string
let engaged = days >= 30 and uses >= 20 and events("purchase") >= 1

never answered when declined or rated
never too_soon when since(last_prompt) < 8w
never yearly_cap when prompts_within(365d) >= 3
ask when engaged and plan == "pro" && sessions > 3
ask loyal when usess >= 50
POLICY
cat > "$work/init.lua" <<LUA
vim.opt.runtimepath:append("$PWD/Editors/vim")
vim.cmd("syntax on")
vim.cmd("filetype on")
vim.opt.termguicolors = false
vim.opt.number = true
vim.opt.signcolumn = "yes"
vim.api.nvim_create_autocmd("FileType", {
  pattern = "policy",
  callback = function(args)
    local client = vim.lsp.start_client({ name = "policyc", cmd = { "$policyc", "lsp" }, root_dir = "$work" })
    vim.lsp.buf_attach_client(args.buf, client)
  end,
})
LUA
tmux new-session -d -s policy-shot -x 112 -y 13 "cd $work && TERM=xterm-256color nvim -u $work/init.lua review.policy"
sleep 4
mkdir -p docs/images
tmux capture-pane -t policy-shot -e -p > "$work/capture.txt"
python3 Scripts/ansi-to-svg.py "$work/capture.txt" "$work/capture.svg"
rsvg-convert "$work/capture.svg" -o docs/images/neovim-lsp.png
echo "wrote docs/images/neovim-lsp.png"
