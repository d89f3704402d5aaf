#!/usr/bin/env python3
"""Issue 34, import: memory independent of the file's size.

`rubric import` of a JSON list and of a CSV file of about 250 MB each, `rubric import-scores` and
`rubric import-annotations` of files of a million rows: each child's peak resident memory
(wait4's ru_maxrss) stays under 200 MB, where reading the whole file first took several times the
file. Each import must also land whole (the item and score counts).

    import_memory.py RUBRIC
"""
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

RUBRIC = sys.argv[1]
LIMIT_MIB = 200
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def run(args):
    """Runs a child; returns (rc, stdout, stderr, peak MiB)."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(p.pid, 0)
    out, err = p.stdout.read(), p.stderr.read()
    p.stdout.close()
    p.stderr.close()
    rc = os.waitstatus_to_exitcode(status)
    return rc, out, err, usage.ru_maxrss / 1024.0


ARTICLE = "word " * 400  # 2 kB, shared by 16 outputs as in SummEval


def rows(n):
    for k in range(n):
        yield {"id": f"it{k}", "doc": f"d{k // 16}", "source": ARTICLE + str(k // 16),
               "output": f"output {k} " + "x" * 300, "score": (k % 5) + 1}


def import_args(path, project):
    return [RUBRIC, "import", path, "--project", project, "--id", "id", "--group", "doc", "--source", "source",
            "--output", "output", "--human", "coherence=score", "--json"]


def main():
    tmp = tempfile.mkdtemp(prefix="import-memory-")
    n = 100000
    mib = lambda path: os.path.getsize(path) / 2**20

    data = os.path.join(tmp, "items.json")
    with open(data, "w", encoding="utf-8") as f:
        f.write("[\n")
        for k, r in enumerate(rows(n)):
            f.write((",\n" if k else "") + json.dumps(r))
        f.write("\n]\n")
    rc, out, err, peak = run(import_args(data, os.path.join(tmp, "json.rubric")))
    check(rc == 0 and json.loads(out)["items"] == n, f"a JSON list of {n} items imports: {err.strip()[:200]}")
    check(peak < LIMIT_MIB, f"JSON list of {mib(data):.0f} MiB: peak {peak:.0f} MiB (limit {LIMIT_MIB})")
    os.remove(data)

    data = os.path.join(tmp, "items.csv")
    with open(data, "w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["id", "doc", "source", "output", "score"])
        w.writeheader()
        for r in rows(n):
            w.writerow(r)
    project = os.path.join(tmp, "csv.rubric")
    rc, out, err, peak = run(import_args(data, project))
    check(rc == 0 and json.loads(out)["items"] == n, f"a CSV of {n} items imports: {err.strip()[:200]}")
    check(peak < LIMIT_MIB, f"CSV of {mib(data):.0f} MiB: peak {peak:.0f} MiB (limit {LIMIT_MIB})")
    os.remove(data)

    # A judge's scores and long-format annotations for every item, ten times over in rows.
    scores = os.path.join(tmp, "scores.jsonl")
    with open(scores, "w", encoding="utf-8") as f:
        for k in range(n):
            f.write(json.dumps({"id": f"it{k}", "a": (k % 7) / 2, "note": "n" * 200}) + "\n")
    rc, out, err, peak = run([RUBRIC, "import-scores", scores, "--project", project, "--judge", "J", "--id", "id",
                              "--score", "coherence=a", "--json"])
    check(rc == 0 and json.loads(out)["scores"] == n, f"import-scores of {n} rows: {err.strip()[:200]}")
    check(peak < LIMIT_MIB, f"import-scores of {mib(scores):.0f} MiB: peak {peak:.0f} MiB (limit {LIMIT_MIB})")

    notes = os.path.join(tmp, "annotations.csv")
    with open(notes, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["item_id", "annotator", "aspect", "score", "note"])
        for k in range(n):
            for a in range(3):
                w.writerow([f"it{k}", f"ann{a}", "coherence", (k + a) % 5 + 1, "a note " * 20])
    rc, out, err, peak = run([RUBRIC, "import-annotations", notes, "--project", project])
    check(rc == 0 and out.startswith(f"imported {3 * n} annotations"),
          f"import-annotations of {3 * n} rows: {(out + err).strip()[:200]}")
    check(peak < LIMIT_MIB, f"import-annotations of {mib(notes):.0f} MiB: peak {peak:.0f} MiB (limit {LIMIT_MIB})")

    shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
