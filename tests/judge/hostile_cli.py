#!/usr/bin/env python3
"""Issue 33, acceptance: `rubric judge-test` and a 20-item run against loopback endpoints that
misbehave on purpose (build/bin/hostile-llm-server): a 100,000-deep answer, a 300 MB body, one byte
a second, negative usage and `Retry-After: inf`. Each ends with a clear error per call (or its
answer), within the deadline, under 500 MB of peak memory, with the project intact and the money
spent never negative.

    hostile_cli.py RUBRIC HOSTILE_SERVER
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

RUBRIC, SERVER = sys.argv[1], sys.argv[2]
DEADLINE_MS = 3000
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what, flush=True)
    if not ok:
        failures.append(what)


def start(mode):
    p = subprocess.Popen([SERVER, "--mode", mode], stdout=subprocess.PIPE, text=True)
    line = p.stdout.readline()
    assert line.startswith("listening on "), line
    return p, line.split()[-1]


def measured(args, timeout=120):
    """Runs args; returns (rc, stdout, stderr, seconds, peak RSS in MB) of that process alone."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t0 = time.monotonic()
        p = subprocess.Popen(args, stdout=out, stderr=err)
        # Blocks until it exits (wait4 gives that process's own peak memory); the alarm kills it
        # past the timeout, and the wait then returns.
        signal.signal(signal.SIGALRM, lambda *_: p.kill())
        signal.alarm(timeout)
        try:
            _, status, usage = os.wait4(p.pid, 0)
        finally:
            signal.alarm(0)
        seconds = time.monotonic() - t0
        out.seek(0)
        err.seek(0)
        rc = os.waitstatus_to_exitcode(status)
        return rc, out.read().decode(), err.read().decode(), seconds, usage.ru_maxrss / 1024.0


def judge_test(mode, url):
    rc, out, err, seconds, rss = measured([RUBRIC, "judge-test", "--base-url", url, "--model", "m",
                                           "--deadline-ms", str(DEADLINE_MS), "--json"])
    answer = json.loads(out) if out.strip().startswith("{") else {}
    return rc, answer, err, seconds, rss


def make_project(folder):
    data = os.path.join(folder, "items.jsonl")
    with open(data, "w") as f:
        for i in range(20):
            f.write(json.dumps({"id": f"i{i}", "source": f"An article about topic {i}.",
                                "output": f"A summary of topic {i}.", "coherence": 1 + i % 5}) + "\n")
    project = os.path.join(folder, "p.rubric")
    subprocess.run([RUBRIC, "import", data, "--project", project, "--id", "id", "--source", "source",
                    "--output", "output", "--human", "coherence=coherence"], check=True, capture_output=True)
    return project


def run(project, url, judge):
    return measured([RUBRIC, "run", "--project", project, "--method", "direct", "--aspect", "coherence",
                     "--judge", judge, "--items", "all", "--base-url", url, "--model", "m",
                     "--set", f"evaluator.deadline_ms={DEADLINE_MS}", "--set", "price.in=3", "--set", "price.out=15",
                     "--json"], timeout=180)


def info(project):
    r = subprocess.run([RUBRIC, "info", "--project", project, "--json"], capture_output=True, text=True)
    return r.returncode, (json.loads(r.stdout) if r.returncode == 0 else {})


expected_error = {"deep-json": "deeper than 128", "huge-body": "larger than 32 MB",
                  "trickle": f"within {DEADLINE_MS // 1000} s"}
with tempfile.TemporaryDirectory() as folder:
    project = make_project(folder)
    for mode in ["deep-json", "huge-body", "trickle", "negative-usage", "retry-after-inf"]:
        server, url = start(mode)
        try:
            rc, answer, err, seconds, rss = judge_test(mode, url)
            print(f"judge-test {mode}: rc {rc}, {seconds:.1f} s, peak {rss:.0f} MB, error {answer.get('error')!r}")
            check(rss < 500, f"judge-test {mode}: peak memory {rss:.0f} MB < 500 MB")
            check(seconds < DEADLINE_MS / 1000 + 15, f"judge-test {mode}: ends within the deadline ({seconds:.1f} s)")
            if mode in expected_error:
                check(rc == 1 and expected_error[mode] in answer.get("error", ""),
                      f"judge-test {mode}: a clear error ({answer.get('error')!r})")
            else:
                check(rc == 0 and answer.get("ok") is True, f"judge-test {mode}: answered ({err.strip()[:200]})")
                check(answer.get("tokens_in", -1) >= 0 and answer.get("tokens_out", -1) >= 0,
                      f"judge-test {mode}: token counts not negative")

            judge = "j-" + mode
            rc, out, err, seconds, rss = run(project, url, judge)
            summary = json.loads(out) if out.strip().startswith("{") else {}
            cost = summary.get("cost", summary.get("summary", {}).get("cost", 0.0))
            print(f"run {mode}: rc {rc}, {seconds:.1f} s, peak {rss:.0f} MB, cost {cost}, "
                  f"stderr {err.strip()[-200:]!r}")
            check(rss < 500, f"run {mode}: peak memory {rss:.0f} MB < 500 MB")
            check(seconds < 120, f"run {mode}: ends ({seconds:.1f} s)")
            check(isinstance(cost, (int, float)) and cost >= 0, f"run {mode}: money spent not negative ({cost})")
            if mode in expected_error:
                text = out + err
                check(expected_error[mode] in text, f"run {mode}: the error per call is said")
            irc, project_info = info(project)
            check(irc == 0 and project_info.get("items") in (20, None) or irc == 0,
                  f"run {mode}: the project opens after the run")
        finally:
            server.kill()
            server.wait()

if failures:
    print(f"{len(failures)} check(s) failed", file=sys.stderr)
    sys.exit(1)
print("every hostile endpoint ended with a clear error or its answer, within bounds")
