#!/usr/bin/env python3
"""The stdlib-Python import reference `rubric bench scale` measures `rubric import` against.

Reads a JSONL dataset the way the bench writes it (id, doc_id, system_id, source, system_output,
reference, scores.coherence) with json.loads and writes it into a fresh SQLite file with one
executemany per table, in one transaction: the simplest fast import a Python user would write.
Prints one line of JSON: items and seconds. Peak memory is measured by whoever runs it (wait4).

usage: import_reference.py FILE.jsonl OUT.sqlite
"""
import json
import sqlite3
import sys
import time


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    src, out = sys.argv[1], sys.argv[2]
    start = time.perf_counter()
    items, scores = [], []
    with open(src, encoding="utf-8") as f:
        for position, line in enumerate(f):
            if not line.strip():
                continue
            r = json.loads(line)
            items.append((r["id"], position, r.get("doc_id", ""), r.get("system_id", ""), r.get("source", ""),
                          r.get("system_output", ""), r.get("reference", "")))
            s = r.get("scores", {}).get("coherence")
            if s is not None:
                scores.append((position + 1, s))
    db = sqlite3.connect(out)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, ext_id TEXT NOT NULL UNIQUE, position INTEGER NOT NULL,"
               " group_id TEXT NOT NULL, system_id TEXT NOT NULL, source TEXT NOT NULL, output TEXT NOT NULL,"
               " reference TEXT NOT NULL)")
    db.execute("CREATE TABLE annotations(item_id INTEGER NOT NULL, score REAL NOT NULL)")
    with db:
        db.executemany("INSERT INTO items(ext_id, position, group_id, system_id, source, output, reference)"
                       " VALUES(?, ?, ?, ?, ?, ?, ?)", items)
        db.executemany("INSERT INTO annotations(item_id, score) VALUES(?, ?)", scores)
    db.close()
    print(json.dumps({"items": len(items), "seconds": time.perf_counter() - start}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
