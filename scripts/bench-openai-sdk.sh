#!/usr/bin/env bash
# Judge-engine throughput against the official OpenAI Node SDK, both driving one loopback fake endpoint
# (build/bin/fake-llm-server, fixed latency) with the same small prompts, distinct per request, cache off.
# For each concurrency C (default 32 and 128) and each of K rounds (default 5) it runs
#   - the SDK: scripts/bench-openai-sdk.mjs, N chat completions with exactly C in flight (a promise pool,
#     maxRetries 0), and
#   - the engine: `build/bin/rubric bench judge --base-url URL --model synthetic --requests N --concurrency C --json`,
# the SDK first on odd rounds and the engine first on even ones, then prints each round's requests/s and,
# per concurrency, the medians and their ratio (engine / SDK). Both time from the first request to the last
# answer (process start-up and module loading excluded), and the fake server's own counters check that each
# client sent exactly N requests.
#
#   scripts/bench-openai-sdk.sh [--latency-ms MS] [--requests N] [--rounds K] [--concurrency "32 128"]
#                               [--build-dir DIR]
#
# Defaults: 5 ms latency, 4000 requests, 5 rounds, concurrency "32 128", build dir build/ beside scripts/.
# Needs the build's bin/rubric and bin/fake-llm-server. Installs what else it needs when it is missing:
# node and npm (Debian 12's nodejs/npm packages via apt-get), and the `openai` npm package into
# ${XDG_CACHE_HOME:-$HOME/.cache}/rubric-bench-node (outside the repo; RUBRIC_BENCH_NODE_DIR overrides the
# folder, RUBRIC_BENCH_OPENAI_SPEC the package spec, e.g. openai@6.49.0, for a first install there).
# Loopback only (127.0.0.1, any free port), bounded request counts, each client run under a 10-minute
# timeout; the fake server is stopped on exit. Exit 0 after the table, non-zero when it could not run.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=$(dirname "$here")/build
latency=5
requests=4000
rounds=5
concurrencies="32 128"

usage() {
    if [ "${1:-0}" -eq 0 ]; then
        sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'
    else
        sed -n '/^#   scripts/,/^#  /p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    fi
    exit "${1:-0}"
}
while [ $# -gt 0 ]; do
    case $1 in
    --latency-ms) latency=$2; shift 2 ;;
    --requests) requests=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --concurrency) concurrencies=$2; shift 2 ;;
    --build-dir) build=$2; shift 2 ;;
    -h | --help) usage 0 ;;
    *) echo "bench-openai-sdk.sh: unknown argument '$1'" >&2; usage 2 ;;
    esac
done
for v in "$latency" "$requests" "$rounds" $concurrencies; do
    case $v in
    '' | *[!0-9]*) echo "bench-openai-sdk.sh: '$v' is not a non-negative integer" >&2; exit 2 ;;
    esac
done
if [ "$requests" -le 0 ] || [ "$rounds" -le 0 ] || [ -z "$concurrencies" ]; then
    echo "bench-openai-sdk.sh: --requests, --rounds and --concurrency must be positive" >&2
    exit 2
fi

rubric=$build/bin/rubric
fake=$build/bin/fake-llm-server
for b in "$rubric" "$fake"; do
    if [ ! -x "$b" ]; then
        echo "bench-openai-sdk.sh: $b is missing; build the rubric and fake-llm-server targets first" >&2
        exit 1
    fi
done

# --- Node, npm and the SDK -----------------------------------------------------------------------------
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo "$@"; else
        echo "bench-openai-sdk.sh: need root (or sudo) for: $*" >&2
        return 1
    fi
}
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "== installing nodejs and npm (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    as_root apt-get install -y --no-install-recommends nodejs npm \
        || { as_root apt-get update && as_root apt-get install -y --no-install-recommends nodejs npm; }
fi
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 18 ]; then
    echo "bench-openai-sdk.sh: node $(node --version) is too old (the SDK needs fetch: Node 18 or later)" >&2
    exit 1
fi
node_dir=${RUBRIC_BENCH_NODE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/rubric-bench-node}
if [ ! -f "$node_dir/node_modules/openai/package.json" ]; then
    echo "== installing the openai npm package into $node_dir"
    mkdir -p "$node_dir"
    npm install --prefix "$node_dir" --no-audit --no-fund --loglevel=error "${RUBRIC_BENCH_OPENAI_SPEC:-openai}"
fi
client=(node "$here/bench-openai-sdk.mjs" --modules "$node_dir/node_modules")
versions=$("${client[@]}" --versions)

# --- the fake endpoint ---------------------------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rubric-bench-sdk.XXXXXX")
fake_pid=""
# shellcheck disable=SC2317 # (called by the EXIT trap)
cleanup() {
    if [ -n "$fake_pid" ]; then
        kill "$fake_pid" 2>/dev/null || true
        wait "$fake_pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$fake" --port 0 --latency-ms "$latency" >"$tmp/fake.out" 2>&1 &
fake_pid=$!
url=""
for _ in $(seq 100); do # 10 s at most
    url=$(sed -n 's/^listening on //p' "$tmp/fake.out")
    [ -n "$url" ] && break
    if ! kill -0 "$fake_pid" 2>/dev/null; then
        echo "bench-openai-sdk.sh: fake-llm-server exited:" >&2
        cat "$tmp/fake.out" >&2
        exit 1
    fi
    sleep 0.1
done
case $url in
http://127.0.0.1:*) ;;
*) echo "bench-openai-sdk.sh: fake-llm-server did not report a loopback URL (got '$url')" >&2; exit 1 ;;
esac

# field FILE KEY: a top-level field of the one-line JSON object at the end of FILE ("" when absent).
field() {
    node -e 'const fs = require("fs");
        const lines = fs.readFileSync(process.argv[1], "utf8").trim().split("\n");
        let v; try { v = JSON.parse(lines[lines.length - 1])[process.argv[2]]; } catch { v = undefined; }
        console.log(v === undefined || v === null ? "" : typeof v === "number" ? String(v) : v);' "$1" "$2"
}
served() { # the fake server's count of chat requests so far
    "${client[@]}" --stats "$url" >"$tmp/stats.json" && field "$tmp/stats.json" "$1"
}

# run_one sdk|engine C ROUND: runs one client, prints its req/s (or "failed"), notes problems in $tmp/notes.
run_one() {
    local who=$1 c=$2 round=$3 out=$tmp/$1-$2-$3.json before after rc=0 rps errors first
    before=$(served requests)
    if [ "$who" = sdk ]; then
        timeout 600 "${client[@]}" --base-url "$url" --requests "$requests" --concurrency "$c" --json \
            >"$out" 2>"$out.err" || rc=$?
    else
        timeout 600 "$rubric" bench judge --base-url "$url" --model synthetic --requests "$requests" \
            --concurrency "$c" --json >"$out" 2>"$out.err" || rc=$?
    fi
    after=$(served requests)
    rps=$(field "$out" rps)
    errors=$(field "$out" errors)
    if [ "$rc" -ne 0 ] || [ -z "$rps" ]; then
        first=$(field "$out" first_error)
        echo "C=$c round $round $who: exit $rc, errors ${errors:-?}${first:+, first error: $first}" \
            "$(head -c 300 "$out.err")" >>"$tmp/notes"
    fi
    if [ $((after - before)) -ne "$requests" ]; then
        echo "C=$c round $round $who: the server counted $((after - before)) requests, not $requests" >>"$tmp/notes"
    fi
    if [ -n "$rps" ] && [ "$rc" -eq 0 ]; then printf '%.1f\n' "$rps"; else echo failed; fi
}

echo "== $versions; $("$rubric" --version 2>/dev/null | head -n1 || true)"
echo "== fake-llm-server at $url, ${latency} ms latency; $requests requests a run, $rounds rounds," \
    "concurrency $concurrencies"
echo "== load before: $(uptime)"
: >"$tmp/notes"
: >"$tmp/results"
for c in $concurrencies; do
    for round in $(seq "$rounds"); do
        if [ $((round % 2)) -eq 1 ]; then
            sdk=$(run_one sdk "$c" "$round")
            engine=$(run_one engine "$c" "$round")
            first=sdk
        else
            engine=$(run_one engine "$c" "$round")
            sdk=$(run_one sdk "$c" "$round")
            first=engine
        fi
        echo "$c $round $sdk $engine $first" >>"$tmp/results"
        printf '   C=%-4s round %s: SDK %s req/s, engine %s req/s (%s first)\n' "$c" "$round" "$sdk" "$engine" "$first"
    done
    echo "   the server saw at most $(served max_concurrent) requests in flight so far"
done
echo "== load after: $(uptime)"
echo

awk -v latency="$latency" -v n="$requests" '
    function median(a, k,   i, j, t) { # sorts a[1..k] in place
        for (i = 2; i <= k; ++i) for (j = i; j > 1 && a[j - 1] > a[j]; --j) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return k == 0 ? "" : (k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2)
    }
    BEGIN {
        printf "OpenAI Node SDK vs judge engine, %d requests a run, %d ms fake latency (req/s)\n", n, latency
        printf "%-11s  %-5s  %-6s  %12s  %12s\n", "concurrency", "round", "first", "SDK", "engine"
    }
    {
        if (!($1 in seen)) { seen[$1] = 1; order[++nc] = $1 }
        printf "%-11s  %-5s  %-6s  %12s  %12s\n", $1, $2, $5, $3, $4
        if ($3 != "failed") { ks[$1]++; sv[$1, ks[$1]] = $3 }
        if ($4 != "failed") { ke[$1]++; ev[$1, ke[$1]] = $4 }
    }
    END {
        print ""
        printf "%-11s  %12s  %12s  %14s\n", "concurrency", "SDK median", "engine median", "engine / SDK"
        for (i = 1; i <= nc; ++i) {
            c = order[i]
            delete s; delete e
            for (j = 1; j <= ks[c]; ++j) s[j] = sv[c, j]
            for (j = 1; j <= ke[c]; ++j) e[j] = ev[c, j]
            ms = median(s, ks[c] + 0); me = median(e, ke[c] + 0)
            ratio = (ms != "" && me != "" && ms > 0) ? sprintf("%.2f", me / ms) : "n/a"
            printf "%-11s  %12s  %12s  %14s\n", c, ms == "" ? "n/a" : sprintf("%.1f", ms),
                me == "" ? "n/a" : sprintf("%.1f", me), ratio
        }
    }' "$tmp/results"

if [ -s "$tmp/notes" ]; then
    echo
    echo "Problems (the runs marked failed are left out of the medians):"
    cat "$tmp/notes"
fi
exit 0
