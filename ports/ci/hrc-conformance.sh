#!/bin/sh
# hrc-conformance.sh: a CI step for a port in its own repository (copy this file there).
# Installs the pinned kit into a virtualenv of its own, builds the adapter (the adapter's
# hrc-adapter.yaml, or HRC_BUILD), runs the golden suite with `--require`, and writes a JUnit
# file and a JSON report for the CI to publish. Exit status: hrc run's (0 all good, 1 a case
# failed or a --require is not met, 2 a usage error or an adapter that cannot start).
#
# Settings (environment variables; only HRC_PIN is required):
#   HRC_PIN                what `hrc pin` or `hrc pin --wheel dist/` printed after "pip install ":
#                          a wheel file committed or cached in your repository
#                          (vendor/hybrid_retrieval_conformance-X.Y.Z-py3-none-any.whl), or
#                          'git+https://…/hrc.git@COMMIT'. The kit needs no release tag.
#   HRC_ADAPTER            the adapter command (default ./adapter, what `hrc init-port` writes)
#   HRC_REQUIRE            what must be declared (default all; e.g. op:length,op:rrf)
#   HRC_SELECT             a selection (default: every case)
#   HRC_EXPECTED_FAILURES  your expected-failures file (default expected-failures.yaml if present)
#   HRC_BUILD              a build command run before the handshake (default: hrc-adapter.yaml's)
#   HRC_OUT                where the venv, junit.xml and report.json go (default hrc-out)
#   PYTHON                 the Python 3.11+ that makes the venv (default python3)
set -eu
: "${HRC_PIN:?set HRC_PIN to the wheel file or git+URL@COMMIT that hrc pin printed}"
adapter=${HRC_ADAPTER:-./adapter}
require=${HRC_REQUIRE:-all}
out=${HRC_OUT:-hrc-out}
expected=${HRC_EXPECTED_FAILURES:-}
if [ -z "$expected" ] && [ -f expected-failures.yaml ]; then expected=expected-failures.yaml; fi

mkdir -p "$out"
if [ ! -x "$out/venv/bin/hrc" ]; then
  "${PYTHON:-python3}" -m venv "$out/venv"
  "$out/venv/bin/python" -m pip install --quiet --disable-pip-version-check "$HRC_PIN"
fi
"$out/venv/bin/hrc" --version

set -- --adapter "$adapter" --require "$require" --junit "$out/junit.xml" \
  --report-json "$out/report.json"
if [ -n "$expected" ]; then set -- "$@" --expected-failures "$expected"; fi
if [ -n "${HRC_SELECT:-}" ]; then set -- "$@" --select "$HRC_SELECT"; fi
if [ -n "${HRC_BUILD:-}" ]; then set -- "$@" --build "$HRC_BUILD"; fi
exec "$out/venv/bin/hrc" run "$@"
