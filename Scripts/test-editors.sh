#!/usr/bin/env bash
# The editor set-ups of Editors/README.md, run as written in real editors, headless: Neovim
# (Debian's, 0.7) with the README's init.lua, and Emacs (Debian's, 28, with elpa-eglot) with
# the README's init.el. Each opens a policy with a syntax error and two misspelt names and
# checks the mode, the server's diagnostics, the "fix all" code action (Neovim applies it: all
# three fixed), hover on a declared fact, and a malformed .test.json file's diagnostics.
#
#   Scripts/test-editors.sh      # installs neovim, emacs-nox and elpa-eglot with apt-get when
#                                # missing (as root)
#
# Fails when an editor cannot be installed: CI must not skip the test silently.
set -euo pipefail
case "${1:-}" in
  -h | --help)
    echo "usage: Scripts/test-editors.sh [-h | --help]"
    echo
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
  "") ;;
  *) echo "test-editors: unknown option \`$1\` (see --help)" >&2; exit 2 ;;
esac
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
if ! command -v swift >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
missing=()
command -v nvim >/dev/null 2>&1 || missing+=(neovim)
command -v emacs >/dev/null 2>&1 || missing+=(emacs-nox)
ls -d /usr/share/emacs/site-lisp/elpa/eglot-* >/dev/null 2>&1 || missing+=(elpa-eglot)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 ||
      { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
      { echo "test-editors: error: cannot install ${missing[*]} with apt-get" >&2; exit 1; }
  else
    echo "test-editors: error: ${missing[*]} not installed (apt-get install ${missing[*]})" >&2
    exit 1
  fi
fi
swift build --product policyc >/dev/null
PATH="$(swift build --show-bin-path):$PATH"
export PATH

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The README's init.lua and init.el, with the repository's path for the placeholder.
python3 - "$ROOT" "$work" <<'EOF'
import sys
root, work = sys.argv[1], sys.argv[2]
text = open(f"{root}/Editors/README.md").read()
for editor, fence, name in [("**Neovim**", "```lua", "init.lua"), ("**Emacs**", "```elisp", "init.el")]:
    start = text.index(fence, text.index(editor)) + len(fence) + 1
    block = text[start:text.index("```", start)]
    open(f"{work}/{name}", "w").write(block.replace("/path/to/ReviewPolicy", root))
EOF
cat >"$work/p.policy" <<'EOF'
fact plan: string = "free"
never answered when declined or rated
ask when plan == "pro" and dayz >= 30 and uses = 20 and sinse(last_prompt) > 8w
EOF
printf '{"policy": "p.policy", "cases": [{"name": 3}]}\n' >"$work/bad.test.json"
cat >"$work/check.lua" <<'EOF'
local failures = {}
local function check(ok, what) if not ok then table.insert(failures, what) end end
local function diagnostics_of(buf)
  vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  return vim.diagnostic.get(buf)
end
local policy = vim.api.nvim_get_current_buf()
check(vim.bo[policy].filetype == "policy", "filetype is " .. vim.bo[policy].filetype)
check(vim.b[policy].current_syntax == "policy", "no policy syntax")
check(vim.bo[policy].commentstring == "# %s", "commentstring " .. vim.bo[policy].commentstring)
local found = diagnostics_of(policy)
check(#found == 1 and found[1].message:find("use `==` to compare", 1, true) ~= nil,
  "diagnostics: " .. vim.inspect(found))
local client = vim.lsp.get_active_clients()[1]
check(client ~= nil and client.name == "policyc", "no policyc client")
-- Fix all, as the README's code action asks for it.
local params = vim.lsp.util.make_range_params()
params.context = { diagnostics = {}, only = { "source.fixAll" } }
local replies = vim.lsp.buf_request_sync(policy, "textDocument/codeAction", params, 10000) or {}
local action
for _, reply in pairs(replies) do action = action or (reply.result or {})[1] end
check(action ~= nil and action.kind == "source.fixAll.policyc", "fix all: " .. vim.inspect(replies))
if action then
  vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
  local fixed = vim.api.nvim_buf_get_lines(policy, 2, 3, false)[1]
  check(fixed == 'ask when plan == "pro" and days >= 30 and uses == 20 and since(last_prompt) > 8w',
    "fixed line: " .. tostring(fixed))
end
-- Hover on the declared fact `plan` (line 3, column 10).
local hover = vim.lsp.buf_request_sync(policy, "textDocument/hover",
  { textDocument = { uri = vim.uri_from_bufnr(policy) }, position = { line = 2, character = 10 } }, 10000) or {}
local text = ""
for _, reply in pairs(hover) do text = text .. vim.inspect(reply.result) end
check(text:find('Default: `"free"`', 1, true) ~= nil, "hover: " .. text)
-- The test file goes to the same server.
vim.cmd("edit " .. vim.fn.fnameescape(vim.fn.expand("%:p:h") .. "/bad.test.json"))
local test = vim.api.nvim_get_current_buf()
local problems = diagnostics_of(test)
check(#problems >= 1, "no diagnostics for bad.test.json")
local out = io.open(vim.fn.expand("%:p:h") .. "/result.txt", "w")
out:write(#failures == 0 and "ok\n" or table.concat(failures, "\n") .. "\n")
out:close()
vim.cmd(#failures == 0 and "qa!" or "cq!")
EOF
cd "$work"
status=0
timeout 120 nvim --headless -i NONE -u "$work/init.lua" "$work/p.policy" -c "luafile $work/check.lua" \
  >"$work/nvim.log" 2>&1 || status=$?
if [ "$status" != 0 ] || [ "$(cat "$work/result.txt" 2>/dev/null)" != "ok" ]; then
  echo "test-editors: Neovim $(nvim --version | head -n 1) with the README's init.lua failed (status $status):" >&2
  cat "$work/result.txt" "$work/nvim.log" >&2 2>/dev/null || true
  exit 1
fi
echo "test-editors: $(nvim --version | head -n 1): highlighting, diagnostics, fix all, hover and .test.json passed"

# Emacs: the README's init.el in batch mode; eglot connects on the first command, so the check
# runs the command hook itself.
cat >"$work/check.el" <<'EOF'
(defvar policy-failures nil)
(defun policy-check (ok what) (unless ok (push what policy-failures)))
(defun policy-wait (predicate)
  (let ((n 0)) (while (and (< n 200) (not (funcall predicate))) (accept-process-output nil 0.1) (setq n (1+ n)))))
(find-file "p.policy")
(policy-check (eq major-mode 'policy-mode) (format "mode %s" major-mode))
(run-hooks 'post-command-hook)
(policy-wait #'eglot-current-server)
(policy-check (eglot-current-server) "no server")
(policy-wait #'flymake-diagnostics)
(let ((texts (mapcar #'flymake-diagnostic-text (flymake-diagnostics))))
  (policy-check (and (= (length texts) 1) (string-match-p "use `==` to compare" (car texts)))
                (format "diagnostics %S" texts)))
(when (eglot-current-server)
  (let* ((server (eglot-current-server))
         (document `(:uri ,(eglot--path-to-uri (buffer-file-name))))
         (actions (jsonrpc-request server :textDocument/codeAction
                                   `(:textDocument ,document
                                     :range (:start (:line 2 :character 0) :end (:line 2 :character 0))
                                     :context (:diagnostics [] :only ["source.fixAll"]))))
         (hover (jsonrpc-request server :textDocument/hover
                                 `(:textDocument ,document :position (:line 2 :character 10)))))
    (policy-check (and (> (length actions) 0)
                       (equal (plist-get (aref actions 0) :kind) "source.fixAll.policyc"))
                  (format "fix all %S" actions))
    (policy-check (string-match-p "Default: `\"free\"`" (plist-get (plist-get hover :contents) :value))
                  (format "hover %S" hover))))
(find-file "bad.test.json")
(policy-check (eq major-mode 'policy-test-mode) (format "test mode %s" major-mode))
(run-hooks 'post-command-hook)
;; Interactively Flymake checks once the buffer is idle; in batch mode the check asks for it.
(accept-process-output nil 0.5)
(flymake-start)
(policy-wait #'flymake-diagnostics)
(policy-check (flymake-diagnostics) "no diagnostics for bad.test.json")
(with-temp-file "result-emacs.txt"
  (insert (if policy-failures (mapconcat #'identity policy-failures "\n") "ok") "\n"))
(kill-emacs (if policy-failures 1 0))
EOF
status=0
timeout 120 emacs --batch -l "$work/init.el" -l "$work/check.el" >"$work/emacs.log" 2>&1 || status=$?
if [ "$status" != 0 ] || [ "$(cat "$work/result-emacs.txt" 2>/dev/null)" != "ok" ]; then
  echo "test-editors: $(emacs --version | head -n 1) with the README's init.el failed (status $status):" >&2
  cat "$work/result-emacs.txt" "$work/emacs.log" >&2 2>/dev/null || true
  exit 1
fi
echo "test-editors: $(emacs --version | head -n 1): mode, diagnostics, fix all, hover and .test.json passed"
