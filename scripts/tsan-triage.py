#!/usr/bin/env python3
"""Sorts ThreadSanitizer reports (files written with TSAN_OPTIONS=log_path=DIR/r) by what they can mean.

Debian's Qt is not built with TSan, and Qt 6's QMutex waits on a futex, so TSan cannot see the
hand-offs Qt makes inside its own library: posted events and queued calls, QThreadPool and the
QtConcurrent barrier, QNetworkAccessManager's thread, the QtTest watchdog. Each report goes in one of:

  qt-internal  one of the two accesses was made by a library (its first frame past TSan's own is in
               a shared library, not in our binary) or has no frame of ours (core/, ui/, app/,
               tests/): memory that Qt, GLib or another library touched on its own;
  hand-off     both accesses run through our code, one on the main thread and one on a worker whose
               stack shows the Qt hand-off that carried the work there (named);
  finding      anything else: two workers in our code, or no Qt hand-off on the worker's side.
               Read these; each is a race of ours until shown otherwise.

usage: scripts/tsan-triage.py DIR [--show N]   (counts, then up to N example reports per kind)
Exit status 1 when there is a finding.
"""
import collections
import pathlib
import re
import signal
import sys

OURS = re.compile(r"\.\./(core|ui|app|tests)/")
# Qt frames that carry work from one thread to another without a synchronisation TSan can see.
HANDOFFS = [
    ("queued call or posted event", re.compile(r"QObject::event|QCoreApplication::postEvent|QMetaObject::invokeMethod|qobjectdefs_impl\.h|QMetaCallEvent")),
    ("QtConcurrent / QThreadPool", re.compile(r"QtConcurrent::|QThreadPool|QRunnable|QFutureInterface")),
    ("QThread start / wait", re.compile(r"QThread::(start|wait|create)|qthread\.h")),
]


def split_reports(text):
    return [r for r in text.split("WARNING: ThreadSanitizer:")[1:]]


def access_stacks(report):
    # The first two blocks ("Read/Write/Atomic ... by ...", "Previous ...") are the accesses.
    blocks = re.split(r"\n  (?=(?:Previous |Atomic |Read |Write |Location |Mutex |Thread |SUMMARY))", report)
    return [b for b in blocks[1:] if re.match(r"(Previous )?(atomic )?(Atomic )?(read|write|Read|Write)", b)][:2]


CHUNK = re.compile(r"QtConcurrent::(IterateKernel|MapKernel|ThreadEngine)")


def made_by_library(stack):
    for module in re.findall(r"^    #\d+ .*\((\S+?)\+0x[0-9a-f]+\)$", stack, re.M):
        if not module.startswith("libtsan"):
            return module.startswith("lib") and ".so" in module
    return False


def classify(report):
    stacks = access_stacks(report)
    if len(stacks) < 2 or not all(OURS.search(st) for st in stacks) or any(made_by_library(st) for st in stacks):
        return "qt-internal", ""
    in_chunk = [bool(CHUNK.search(st)) for st in stacks]
    if in_chunk.count(True) == 2:
        return "finding", "two chunks of one parallel map"
    if in_chunk.count(True) == 1:
        # The thread that called blockingMap against one of its chunks: the map's barrier.
        return "hand-off", "QtConcurrent map barrier"
    on_main = ["by main thread" in st.split("\n", 1)[0] for st in stacks]
    if on_main.count(True) == 1:
        worker = stacks[on_main.index(False)]
        for name, pattern in HANDOFFS:
            if pattern.search(worker):
                return "hand-off", name
    return "finding", "two workers in our code" if not any(on_main) else "no Qt hand-off on the worker's side"


def main():
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    show = int(sys.argv[sys.argv.index("--show") + 1]) if "--show" in sys.argv else 0
    counts = collections.Counter()
    examples = collections.defaultdict(list)
    summaries = collections.Counter()
    for path in sorted(pathlib.Path(sys.argv[1]).glob("r.*")):
        for report in split_reports(path.read_text(errors="replace")):
            kind, why = classify(report)
            counts[(kind, why)] += 1
            summary = re.search(r"SUMMARY: ThreadSanitizer: (.*)", report)
            summaries[(kind, why, re.sub(r"0x[0-9a-f]+", "", summary.group(1) if summary else "?"))] += 1
            if len(examples[(kind, why)]) < show:
                examples[(kind, why)].append(f"{path.name}:\n{report[:4000]}")
    for (kind, why), n in sorted(counts.items()):
        print(f"{n:6d}  {kind}{': ' + why if why else ''}")
    print()
    for (kind, why, s), n in summaries.most_common():
        print(f"{n:6d}  [{kind}{'/' + why if why else ''}] {s[:150]}")
    for key, reps in examples.items():
        for r in reps:
            print(f"\n===== {key}\n{r}")
    return 1 if any(kind == "finding" for kind, _ in counts) else 0


if __name__ == "__main__":
    sys.exit(main())
