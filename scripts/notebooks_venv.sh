#!/usr/bin/env bash
# Makes the notebooks' and peers' Python environment: .build-notebooks/venv with the pinned
# packages of notebooks/requirements.txt (from PyPI; the system's Python is not touched).
# Idempotent: pip runs only when the requirements changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build-notebooks/venv
if [ ! -x "$venv/bin/python" ]; then python3 -m venv "$venv"; fi
if ! cmp -s notebooks/requirements.txt "$venv/INSTALLED.txt"; then
  echo "notebooks: installing notebooks/requirements.txt into $venv" >&2
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r notebooks/requirements.txt
  cp notebooks/requirements.txt "$venv/INSTALLED.txt"
fi
