#!/bin/sh
# Judge throughput over a pool of 1, 2 and 4 loopback replicas (issue 16.2): fake-llm-server
# processes with a fixed latency, `rubric bench judge` with C requests in flight per replica.
# Then the failover run: four replicas, one answering only HTTP 500 and one killed mid-run.
#   scripts/bench-pool.sh [BUILD_DIR] [REQUESTS] [C] [LATENCY_MS]
set -eu
build=${1:-build}
n=${2:-2000}
c=${3:-4}
latency=${4:-50}
rubric=$build/bin/rubric
fake=$build/bin/fake-llm-server
base=18600
pids=""
start() { # start PORT [fake-llm-server options…]
    port=$1
    shift
    "$fake" --port "$port" --latency-ms "$latency" "$@" >/dev/null &
    pids="$pids $!"
}
stop() {
    for p in $pids; do kill "$p" 2>/dev/null || true; done
    wait 2>/dev/null || true
    pids=""
}
trap stop EXIT
urls() { # urls K: --base-url for the first K replicas
    i=1
    while [ "$i" -le "$1" ]; do
        printf -- '--base-url http://127.0.0.1:%s/v1 ' $((base + i))
        i=$((i + 1))
    done
}
for i in 1 2 3 4; do start $((base + i)); done
sleep 1
uptime
for k in 1 2 4; do
    echo "== $k replica(s), $c in flight each, ${latency} ms latency"
    # shellcheck disable=SC2046
    "$rubric" bench judge $(urls "$k") --model m --requests "$n" --concurrency "$c"
done
stop

echo "== failover: 4 replicas, replica 2 answers HTTP 500, replica 3 is killed after 2 s"
start $((base + 1))
start $((base + 2)) --error-rate 1
start $((base + 3))
victim=$(echo "$pids" | awk '{print $3}')
start $((base + 4))
sleep 1
(sleep 2 && kill -9 "$victim") &
# shellcheck disable=SC2046
"$rubric" bench judge $(urls 4) --model m --requests "$n" --concurrency "$c"
