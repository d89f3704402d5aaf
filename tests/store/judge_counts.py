"""Independent count of each judge's scored items and aspects in a project file (stdlib sqlite3).

Prints one JSON list in the judges' order: {"name", "aspects" (in aspect order, any score row),
"items" (distinct items with a score that is not NULL)}. Used by test_project's
judgeCountsMatchAnIndependentCount.
"""
import json
import sqlite3
import sys

con = sqlite3.connect(sys.argv[1])
out = []
for run_id, name in con.execute("SELECT id, name FROM runs ORDER BY id").fetchall():
    scored = set()
    aspects = set()
    for item_id, aspect_id, score in con.execute(
        "SELECT item_id, aspect_id, score FROM judge_scores WHERE run_id = ?", (run_id,)
    ):
        aspects.add(aspect_id)
        if score is not None:
            scored.add(item_id)
    names = [n for i, n in con.execute("SELECT id, name FROM aspects ORDER BY id") if i in aspects]
    out.append({"name": name, "aspects": names, "items": len(scored)})
print(json.dumps(out))
