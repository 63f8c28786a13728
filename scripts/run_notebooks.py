#!/usr/bin/env python3
"""Executes the notebooks in notebooks/ with nbclient (a Python kernel from the notebooks'
virtual environment: run this with .build-notebooks/venv/bin/python; scripts/notebooks.sh does).

    run_notebooks.py --size full                    # every notebook, outputs written back in place
    run_notebooks.py --size small --out DIR         # executed copies in DIR (the committed ones stay)
    run_notebooks.py --size small catalogue         # one notebook

Parameters reach the notebooks as environment variables (SCOUT_NB_SIZE, SCOUT_NB_SCOUT, and any
--param NAME=VALUE as SCOUT_NB_NAME), read by nbsupport.parameter. Exit status 1 when a cell
fails; the failing cell's error is printed.
"""
import argparse
import os
import sys
import time
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["catalogue", "recommender", "benchmarks"]

ap = argparse.ArgumentParser()
ap.add_argument("names", nargs="*", help=f"notebooks to run (default: {' '.join(ORDER)})")
ap.add_argument("--size", choices=["small", "full"], default="full")
ap.add_argument("--scout", default="", help="scout binary")
ap.add_argument("--out", help="write executed notebooks here instead of in place")
ap.add_argument("--param", action="append", default=[], help="NAME=VALUE, read as SCOUT_NB_NAME")
ap.add_argument("--timeout", type=int, default=3600, help="seconds a cell may take")
args = ap.parse_args()
os.environ["SCOUT_NB_SIZE"] = args.size
os.environ["SCOUT_NB_SCOUT"] = args.scout
os.environ.setdefault("MPLBACKEND", "Agg")
for p in args.param:
    k, _, v = p.partition("=")
    os.environ[f"SCOUT_NB_{k.upper()}"] = v
failed = 0
for name in args.names or ORDER:
    path = ROOT / "notebooks" / f"{name.removesuffix('.ipynb')}.ipynb"
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=args.timeout, kernel_name="python3",
                            resources={"metadata": {"path": str(ROOT)}})
    start = time.monotonic()
    try:
        client.execute()
        status = "ok"
    except CellExecutionError as e:
        failed += 1
        status = "FAILED"
        print(str(e)[-3000:], file=sys.stderr)
    target = Path(args.out) / path.name if args.out else path
    target.parent.mkdir(parents=True, exist_ok=True)
    nbformat.write(nb, target)
    print(f"notebooks: {path.name} ({args.size}) {status} in {time.monotonic() - start:.0f} s -> "
          f"{target.relative_to(ROOT) if target.is_relative_to(ROOT) else target}", flush=True)
sys.exit(1 if failed else 0)
