# python/bench/bench.py runs (a tiny configuration): its table and its checks
# of every result against Python ints stay working. Speed is never checked.
import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

import mpgpu

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench.py"


def test_bench_runs_and_checks_its_results(tmp_path):
    pytest.importorskip("numpy")
    out = tmp_path / "bench.csv"
    env = dict(os.environ, PYTHONPATH=str(Path(mpgpu.__file__).parent.parent))
    r = subprocess.run([sys.executable, str(BENCH), "--context", "cpu", "--min-log-bits", "10", "--max-log-bits", "12",
                        "--batch-count", "64", "--loop-count", "16", "--min-time", "0.001", "--convert-log-bits", "14",
                        "--csv", str(out)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "| overhead " in r.stdout and "| huge/cpu " in r.stdout and "| batch/cpu " in r.stdout
    assert "MISMATCH" not in r.stdout
    assert "| int -> Integer, 2^14 bits" in r.stdout and "| Integer -> int, 2^14 bits" in r.stdout
    rows = out.read_text().splitlines()
    assert rows[0].startswith("section,what,mpgpu_s") and len(rows) > 10


def test_bench_conversions_alone(tmp_path):
    """--sections convert --convert-log-bits: only the int <-> Integer rows (the 2^30-bit run on a GPU)."""
    out = tmp_path / "convert.csv"
    env = dict(os.environ, PYTHONPATH=str(Path(mpgpu.__file__).parent.parent))
    r = subprocess.run([sys.executable, str(BENCH), "--context", "cpu", "--sections", "convert", "--convert-log-bits",
                        "12,16", "--min-time", "0.001", "--csv", str(out)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = list(csv.DictReader(out.open()))
    assert [row["what"] for row in rows] == ["int -> Integer, 2^12 bits", "Integer -> int, 2^12 bits",
                                             "int -> Integer, 2^16 bits", "Integer -> int, 2^16 bits"]
    assert all(row["section"] == "huge/cpu" and row["ok"] == "True" and float(row["python_s"]) > 0 for row in rows), rows
    for bad in (["--sections", "convert"], ["--sections", "nothing", "--convert-log-bits", "12"]):
        r = subprocess.run([sys.executable, str(BENCH), "--context", "cpu", *bad], capture_output=True, text=True,
                           env=env, timeout=60)
        assert r.returncode == 2 and ("needs --convert-log-bits" in r.stderr or "unknown section" in r.stderr), r.stderr
