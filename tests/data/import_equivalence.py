#!/usr/bin/env python3
"""Issue 34, import: `rubric import` against an independent read of the same file.

Writes datasets (JSONL, a JSON list, CSV) with what real files hold: articles shared by many
outputs, non-ASCII text (accents, CJK, emoji as surrogate-pair escapes), escapes, control
characters, numbers where text is expected, lists of rater scores and nulls. Imports each with
the CLI, then reads the project with Python's sqlite3 and compares every item (id, position,
group, system, source, output, reference), every human score and the texts' content addresses
with what json / csv read from the file.

Then all-or-nothing: an import that fails on its last record, and one killed (SIGKILL) while it
writes, leave an existing project exactly as it was (every table's rows, and integrity_check).

    import_equivalence.py RUBRIC
"""
import csv
import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import struct
import subprocess
import sys
import tempfile
import time

RUBRIC = sys.argv[1]
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


WORDS = ["the", "storm", "council", "prices", "café", "naïve", "Zürich", "東京", "市场", "😀", "Ελλάδα",
         "tab\there", "line\nbreak", "quote\"d", "back\\slash", "nul\x00byte", "bell\x07", "\u2028sep"]


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def records(n, seed, share=16):
    """n records; one article (source, reference) per `share` consecutive outputs."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        doc = k // share
        drng = random.Random(seed * 7919 + doc)
        r = {"id": f"it{k}" if k % 5 else k,  # some ids are numbers
             "doc_id": f"doc{doc}",
             "system_id": f"M{k % share}",
             "source": sentence(drng, 200),
             "reference": sentence(drng, 30),
             "system_output": sentence(rng, rng.randint(0, 60)),
             "scores": {"coherence": rng.choice([1, 2, 3.5, 4.25, 5, None]),
                        "raters": [rng.choice([1, 2, 3, None]) for _ in range(3)]}}
        if k % 97 == 3:
            r["system_output"] = 12345678901  # a number where text is expected
        out.append(r)
    return out


def text_of(v):
    """A field as item text, as the importer documents it: strings as they are, integers printed."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return v
    raise ValueError(v)


def address(body):
    return struct.unpack(">q", hashlib.md5(body.encode("utf-8")).digest()[:8])[0]


def import_args(fmt_args):
    return [RUBRIC, "import"] + fmt_args + [
        "--id", "id", "--group", "doc_id", "--system", "system_id", "--source", "source",
        "--output", "system_output", "--reference", "reference",
        "--human", "coherence=scores.coherence", "--human", "raters=scores.raters", "--json"]


def run_import(data, project, extra=()):
    p = subprocess.run(import_args(list(extra)) + [data, "--project", project], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def expected_of(recs, first_position=0):
    items, scores = [], []
    for k, r in enumerate(recs):
        ext = text_of(r["id"]).strip()
        items.append((ext, first_position + k, text_of(r["doc_id"]), text_of(r["system_id"]), text_of(r["source"]),
                      text_of(r["system_output"]), text_of(r["reference"]), "{}"))
        c = r["scores"]["coherence"]
        if c is not None:
            scores.append((ext, "coherence", "imported", float(c)))
        for i, s in enumerate(r["scores"]["raters"]):
            if s is not None:
                scores.append((ext, "raters", f"rater#{i + 1}", float(s)))
    return items, scores


def project_rows(project):
    db = sqlite3.connect(project)
    items = db.execute(
        "SELECT i.ext_id, i.position, i.group_id, i.system_id, s.body, o.body, r.body, c.body FROM items i "
        "JOIN texts s ON s.id = i.source_id JOIN texts o ON o.id = i.output_id "
        "JOIN texts r ON r.id = i.reference_id JOIN texts c ON c.id = i.context_id ORDER BY i.position").fetchall()
    scores = db.execute(
        "SELECT i.ext_id, a.name, n.annotator, n.score FROM annotations n JOIN items i ON i.id = n.item_id "
        "JOIN aspects a ON a.id = n.aspect_id ORDER BY i.position, a.name, n.annotator").fetchall()
    texts = db.execute("SELECT hash, body FROM texts").fetchall()
    db.close()
    return items, scores, texts


def compare(label, project, recs):
    items, scores, texts = project_rows(project)
    want_items, want_scores = expected_of(recs)
    check(len(items) == len(want_items), f"{label}: {len(items)} items, the file has {len(want_items)}")
    bad = [(a, b) for a, b in zip(items, want_items) if a != b]
    check(not bad, f"{label}: every item's id, position, group, system and texts as the file has them"
          + (f" (first difference: {bad[0][0][:4]} vs {bad[0][1][:4]})" if bad else ""))
    want_scores.sort(key=lambda s: (dict((it[0], it[1]) for it in want_items)[s[0]], s[1], s[2]))
    check(scores == want_scores, f"{label}: every human score ({len(scores)} of {len(want_scores)})")
    bodies = [b for _, b in texts]
    check(len(bodies) == len(set(bodies)), f"{label}: each text stored once ({len(bodies)} rows)")
    wanted = {t for it in want_items for t in it[4:8]}
    check(set(bodies) == wanted, f"{label}: the texts are exactly the file's ({len(wanted)} distinct)")
    check(all(h == address(b) for h, b in texts), f"{label}: every text under its content address (MD5)")


def write_jsonl(path, recs):
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")


def dump(project):
    db = sqlite3.connect(project)
    out = {}
    for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"):
        out[name] = db.execute(f'SELECT * FROM "{name}" ORDER BY 1').fetchall()
    ok = db.execute("PRAGMA integrity_check").fetchone()[0]
    db.close()
    return out, ok


def main():
    tmp = tempfile.mkdtemp(prefix="import-equivalence-")
    recs = records(3000, seed=34)

    # JSONL, escaped and raw UTF-8 alike.
    for ensure_ascii in (True, False):
        data = os.path.join(tmp, f"items-{int(ensure_ascii)}.jsonl")
        with open(data, "w", encoding="utf-8") as f:
            for r in recs:
                f.write(json.dumps(r, ensure_ascii=ensure_ascii) + "\n")
        project = os.path.join(tmp, f"jsonl-{int(ensure_ascii)}.rubric")
        rc, out, err = run_import(data, project)
        check(rc == 0, f"jsonl (ensure_ascii={ensure_ascii}) imports: {err.strip()[:200]}")
        if rc == 0:
            compare(f"jsonl (ensure_ascii={ensure_ascii})", project, recs)

    # A JSON list, with CRLF line ends and indentation.
    data = os.path.join(tmp, "items.json")
    with open(data, "w", encoding="utf-8", newline="\r\n") as f:
        json.dump(recs, f, ensure_ascii=False, indent=1)
    project = os.path.join(tmp, "json.rubric")
    rc, out, err = run_import(data, project)
    check(rc == 0, f"json list imports: {err.strip()[:200]}")
    if rc == 0:
        compare("json list", project, recs)

    # CSV: every cell text (the scores columns hold the numbers as text, the rater list as "[1, 2, null]").
    data = os.path.join(tmp, "items.csv")
    csv_recs = []
    with open(data, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(["id", "doc_id", "system_id", "source", "system_output", "reference", "scores.coherence",
                    "scores.raters"])
        for r in recs:
            c = r["scores"]["coherence"]
            row = [text_of(r["id"]), r["doc_id"], r["system_id"], r["source"], text_of(r["system_output"]),
                   r["reference"], "" if c is None else repr(c), json.dumps(r["scores"]["raters"])]
            row = [cell.replace("\x00", "") for cell in row]  # a CSV cell holds no NUL
            w.writerow(row)
            csv_recs.append(dict(r, source=row[3], reference=row[5], system_output=row[4], id=row[0]))
    # CSV's newline handling: the csv module reads back exactly what the importer must hold.
    with open(data, encoding="utf-8", newline="") as f:
        back = list(csv.reader(f))[1:]
    for r, row in zip(csv_recs, back):
        r.update(id=row[0], source=row[3], system_output=row[4], reference=row[5])
    project = os.path.join(tmp, "csv.rubric")
    rc, out, err = run_import(data, project)
    check(rc == 0, f"csv imports: {err.strip()[:200]}")
    if rc == 0:
        compare("csv", project, csv_recs)

    # All or nothing: an existing project, then an import whose last record is broken.
    base = os.path.join(tmp, "base.rubric")
    write_jsonl(os.path.join(tmp, "base.jsonl"), records(200, seed=1))
    rc, _, err = run_import(os.path.join(tmp, "base.jsonl"), base)
    check(rc == 0, f"the base project imports: {err.strip()[:200]}")
    before, ok = dump(base)
    more = [dict(r, id=f"more{k}") for k, r in enumerate(records(3000, seed=2))]
    bad = os.path.join(tmp, "bad.jsonl")
    write_jsonl(bad, more)
    with open(bad, "a", encoding="utf-8") as f:
        f.write('{"id": "broken", "doc_id": "d", "system_id": "s", "source": "x", "system_output": "y",\n')
    rc, _, err = run_import(bad, base)
    check(rc == 1 and f"bad.jsonl:{len(more) + 1}:" in err, f"a broken last record is refused with its line: {err.strip()[:200]}")
    after, ok = dump(base)
    check(after == before and ok == "ok", "the refused import left the project as it was")

    # Killed while writing: a file large enough to be caught in the middle.
    big = os.path.join(tmp, "big.jsonl")
    write_jsonl(big, [dict(r, id=f"big{k}") for k, r in enumerate(records(60000, seed=3))])
    kills = 0
    interrupted = 0
    for delay in (0.05, 0.3, 0.6):
        # Each round on its own copy: an import that finished before its kill has rightly written.
        target = os.path.join(tmp, f"killed-{delay}.rubric")
        shutil.copyfile(base, target)
        p = subprocess.Popen(import_args(["--progress"]) + [big, "--project", target], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
        p.stderr.readline()  # the first progress line: it is writing
        time.sleep(delay)
        killed = p.poll() is None
        if killed:
            p.send_signal(signal.SIGKILL)
            kills += 1
        p.wait()
        after, ok = dump(target)
        whole = len(after.get("items", [])) == len(before.get("items", [])) + 60000
        if after == before:
            interrupted += 1
        # All or nothing: untouched, or (the kill came after the commit, while the process closed
        # the file) the whole import.
        check(ok == "ok" and (after == before or (whole and (killed or p.returncode == 0))),
              f"an import {'killed' if killed else 'finished'} at {delay} s left the project as it was or whole")
    check(kills > 0 and interrupted > 0, f"{kills} imports were killed, {interrupted} of them before they committed")
    rc, _, err = run_import(big, base)
    check(rc == 0, f"the same import then runs whole: {err.strip()[:200]}")

    shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failed")
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
