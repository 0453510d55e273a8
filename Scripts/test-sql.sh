#!/usr/bin/env bash
# The rollout read-out's SQL against `policyc report` on a real embedded engine: DuckDB (PyPI),
# installed into a virtual environment under .build-sql, runs `policyc report --sql` over the
# records of 100,000 simulated installs of a two-arm rollout; Tests/SQL/check_report_sql.py fails
# unless it gives the report's figures exactly, the report's intervals hold the model's true rates
# and `policyc replay` under the producing policy decides every check as recorded.
#
# Needs python3 with venv and access to PyPI (or a mirror through PIP_INDEX_URL). When DuckDB
# cannot be installed the script fails: CI must not skip the test silently. USERS overrides the
# number of installs.
set -euo pipefail
usage() {
  cat <<'USAGE'
usage: Scripts/test-sql.sh [-h | --help]

Checks the rollout read-out's SQL (`policyc report --sql`) in DuckDB (installed from PyPI into a
virtual environment) against `policyc report` and `policyc replay`; builds policyc in release first.

environment:
  SQL_VENV   the virtual environment (default: .build-sql/venv)
  USERS      the number of simulated installs (default: 100000)
USAGE
}
for argument in "$@"; do
  case "$argument" in
    -h|--help) usage; exit 0 ;;
    -*) echo "test-sql.sh: error: unknown option \`$argument\`" >&2; usage >&2; exit 2 ;;
    *) echo "test-sql.sh: error: unexpected argument \`$argument\`" >&2; usage >&2; exit 2 ;;
  esac
done
cd "$(dirname "$0")/.."
if ! command -v swift >/dev/null 2>&1; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi

venv="${SQL_VENV:-.build-sql/venv}"
if ! command -v python3 >/dev/null 2>&1; then
  echo "test-sql: error: python3 is needed for the SQL test" >&2
  exit 1
fi
if ! "$venv/bin/python" -c "import duckdb" 2>/dev/null; then
  python3 -m venv "$venv" || { echo "test-sql: error: cannot create a Python virtual environment in $venv" >&2; exit 1; }
  if ! "$venv/bin/pip" install --quiet --disable-pip-version-check "duckdb>=1.1,<2"; then
    echo "test-sql: error: cannot install DuckDB from PyPI; the SQL test did not run" >&2
    exit 1
  fi
fi

swift build -c release --product policyc
POLICYC="$(swift build -c release --show-bin-path)/policyc"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$venv/bin/python" Tests/SQL/check_report_sql.py "$POLICYC" "$work" "${USERS:-100000}"
