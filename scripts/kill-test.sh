#!/usr/bin/env bash
# SIGKILL at random points (issue 19): N kills (default 200) spread evenly over five kinds of work,
# each checked after the kill:
#   import   `rubric import` of 3000 items (into a new file or beside an existing dataset): the file
#            passes PRAGMA integrity_check, holds all of the import or none of it, and the import then
#            completes;
#   run      `rubric run` (G-Eval, logprobs) against fake-llm-server: integrity, then the same command
#            completes the run, and the answers paid twice (requests the server got more than once,
#            counted by the server) are no more than the requests in flight at the kill (sent before
#            it, their answer not in the file's ledger after it);
#   save     the Rubric pane's "Save version" in a loop (kill_child save-rubric): every version it
#            reported saved is there, whole; no version is partial;
#   rescore  a saved rubric version re-scored (`rubric run --resume`): as for a run;
#   annotate the Annotate pane's score and note saves in a loop (kill_child annotate): every score it
#            reported saved is in the file (or the write it had started when it was killed).
# Prints kills per kind and the counts of integrity failures, lost saves, partial imports, runs that
# did not complete, answers paid twice and requests in flight; exits 1 on any failure.
#
#   scripts/kill-test.sh [N]        (RUBRIC_BUILD_DIR=build; KILL_SEED=S for a fixed sequence)
# The binaries come from RUBRIC_BUILD_DIR, or RUBRIC_CLI, FAKE_LLM_SERVER and KILL_CHILD.
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-200}
build=${RUBRIC_BUILD_DIR:-build}
rubric=${RUBRIC_CLI:-$build/bin/rubric}
server=${FAKE_LLM_SERVER:-$build/bin/fake-llm-server}
child=${KILL_CHILD:-$build/tests/store/kill_child}
seed=${KILL_SEED:-$(date +%s)}
RANDOM=$seed
for b in "$rubric" "$server" "$child"; do
  [ -x "$b" ] || { echo "kill-test: $b is not built" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "kill-test: needs the sqlite3 command" >&2; exit 2; }

work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

q() { sqlite3 -batch "$1" "$2"; }
ms_now() { date +%s%3N; }

# --- data: 120 items for the runs (2 aspects), 3000 for the imports
gen() { # gen FILE COUNT PREFIX
  awk -v n="$2" -v p="$3" 'BEGIN { srand(7); for (i = 0; i < n; i++)
    printf "{\"id\":\"%s%d\",\"doc\":\"d%d\",\"sys\":\"s%d\",\"source\":\"The council met on day %d and agreed the budget for the river works.\",\"output\":\"Summary %s%d: the council agreed a budget on day %d.\",\"coherence\":%d,\"fluency\":%d}\n",
      p, i, i % 30, i % 4, i, p, i, i, 1 + int(rand() * 5), 1 + int(rand() * 5) }' > "$1"
}
gen "$work/base.jsonl" 120 a
gen "$work/big.jsonl" 3000 b
import_args=(--id id --group doc --system sys --source source --output output
             --human coherence=coherence --human fluency=fluency --scale coherence=1:5 --scale fluency=1:5)
base=$work/base.rubric
"$rubric" import "$work/base.jsonl" --project "$base" "${import_args[@]}" >/dev/null
"$rubric" split --project "$base" --train 20 --seed 1 >/dev/null

"$server" --port 0 --latency-ms 5 --synthetic-project "$base" > "$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 100); do grep -q "listening on" "$work/server.log" && break; sleep 0.1; done
url=$(sed -n 's/.*listening on \(http[^ ]*\).*/\1/p' "$work/server.log")
[ -n "$url" ] || { echo "kill-test: fake-llm-server did not start" >&2; cat "$work/server.log" >&2; exit 2; }
stats_url=${url%/v1}/fake/stats
server_stat() { curl -s "$stats_url" | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }

proj=$work/run.rubric
cp "$base" "$proj"
run_args() { # run_args JUDGE MODEL [--resume]: the command of a run in the array `cmd`
  if [ "${3:-}" = --resume ]; then
    cmd=("$rubric" run --project "$proj" --judge "$1" --resume)
  else
    cmd=("$rubric" run --project "$proj" --method geval --aspect coherence --judge "$1" --base-url "$url"
         --model "$2" --logprobs --concurrency 8)
  fi
}
run_cmd() { run_args "$@"; "${cmd[@]}"; }

# --- calibration: how long each kind of work takes when nobody kills it
t0=$(ms_now); run_cmd cal cal >/dev/null 2>&1; t_run=$(( $(ms_now) - t0 ))
run_cmd rs rs >/dev/null 2>&1
run_cmd sv rs >/dev/null 2>&1 # a second judge with the same prompts (all from the cache) for the save loop
"$child" save-rubric "$proj" rs 1 1 >/dev/null
t0=$(ms_now); run_cmd rs rs --resume >/dev/null 2>&1; t_rescore=$(( $(ms_now) - t0 ))
t0=$(ms_now); "$rubric" import "$work/big.jsonl" --project "$work/cal.rubric" "${import_args[@]}" >/dev/null
t_import=$(( $(ms_now) - t0 ))
t_loop=1000 # the save and annotate loops run until killed
echo "kill-test: seed $seed, $kills kills; unkilled durations: run ${t_run} ms, re-score ${t_rescore} ms," \
     "import ${t_import} ms"

declare -A killed=() finished=()
integrity=0 lost=0 partial=0 unfinished=0 paid_twice=0 in_flight=0 beyond=0 confirmed=0 failures=0
problem() { echo "  FAIL ($1): $2"; failures=$((failures + 1)); }

# kill_at MS LOG CMD…: runs CMD, SIGKILLs it after a random time in [0, MS]; sets was_killed.
kill_at() {
  local limit=$1 log=$2; shift 2
  local delay=$(( RANDOM * 32768 + RANDOM ))
  delay=$(( delay % (limit + 1) ))
  "$@" > "$log" 2>&1 &
  local pid=$!
  sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
  if kill -KILL "$pid" 2>/dev/null; then was_killed=1; else was_killed=0; fi
  wait "$pid" 2>/dev/null || true
}

check_integrity() { # check_integrity FILE KIND
  [ -s "$1" ] || return 0
  local r
  r=$(q "$1" "PRAGMA integrity_check" 2>&1 | tr '\n' ' ')
  if [ "$r" != "ok " ]; then integrity=$((integrity + 1)); problem "$2" "integrity_check: $r"; fi
  r=$(q "$1" "PRAGMA foreign_key_check" 2>&1 | head -3)
  if [ -n "$r" ]; then integrity=$((integrity + 1)); problem "$2" "foreign_key_check: $r"; fi
}

count() { # count KIND was_killed
  if [ "$2" = 1 ]; then killed[$1]=$(( ${killed[$1]:-0} + 1 )); else finished[$1]=$(( ${finished[$1]:-0} + 1 )); fi
}

trial_import() {
  local k=$1 file=$work/imp.rubric
  rm -f "$file" "$file-wal" "$file-shm"
  local before=0
  if (( k % 2 )); then cp "$base" "$file"; before=120; fi # beside an existing dataset
  kill_at $((t_import * 11 / 10)) "$work/import.log" "$rubric" import "$work/big.jsonl" --project "$file" "${import_args[@]}"
  count import $was_killed
  check_integrity "$file" import
  local items=0 notes=0
  if [ -s "$file" ] && [ -n "$(q "$file" "SELECT name FROM sqlite_master WHERE name = 'items'")" ]; then
    items=$(q "$file" "SELECT COUNT(*) FROM items WHERE ext_id LIKE 'b%'")
    notes=$(q "$file" "SELECT COUNT(*) FROM annotations n JOIN items i ON i.id = n.item_id WHERE i.ext_id LIKE 'b%'")
    local old
    old=$(q "$file" "SELECT COUNT(*) FROM items WHERE ext_id LIKE 'a%'")
    [ "$old" = "$before" ] || { partial=$((partial + 1)); problem import "the $before items already there are now $old"; }
  fi
  if ! { [ "$items" = 0 ] && [ "$notes" = 0 ]; } && ! { [ "$items" = 3000 ] && [ "$notes" = 6000 ]; }; then
    partial=$((partial + 1)); problem import "partly imported: $items items, $notes annotations"
  fi
  if [ "$items" = 0 ]; then
    "$rubric" import "$work/big.jsonl" --project "$file" "${import_args[@]}" > "$work/import2.log" 2>&1 \
      || { unfinished=$((unfinished + 1)); problem import "the import after the kill failed: $(cat "$work/import2.log")"; }
  fi
}

# run_trial KIND JUDGE MODEL [--resume]: a run (or re-score) killed, checked, completed, accounted.
run_trial() {
  local kind=$1 judge=$2 model=$3 resume=${4:-} limit=$t_run
  [ "$kind" = rescore ] && limit=$t_rescore
  local r0 d0 l0 rk lk re de
  r0=$(server_stat requests); d0=$(server_stat distinct)
  l0=$(q "$proj" "SELECT COUNT(*) FROM judge_ledger")
  run_args "$judge" "$model" $resume
  kill_at $((limit * 11 / 10)) "$work/run.log" "${cmd[@]}"
  count "$kind" $was_killed
  # Requests the dead client had sent may still reach the server (its accept queue), and its answers
  # to them are due after its latency: read the counts once they stand still.
  rk=-1
  while sleep 0.05; do
    local now
    now=$(server_stat requests)
    [ "$now" = "$rk" ] && break
    rk=$now
  done
  check_integrity "$proj" "$kind"
  lk=$(( $(q "$proj" "SELECT COUNT(*) FROM judge_ledger") - l0 ))
  local sent=$((rk - r0)) lost_here=$((rk - r0 - lk))
  if ! run_cmd "$judge" "$model" $resume > "$work/resume.log" 2>&1; then
    unfinished=$((unfinished + 1)); problem "$kind" "the resumed run failed: $(tail -3 "$work/resume.log")"
  elif [ "$(q "$proj" "SELECT status FROM runs WHERE name = '$judge'")" != done ]; then
    unfinished=$((unfinished + 1)); problem "$kind" "the resumed run is not done"
  fi
  re=$(server_stat requests); de=$(server_stat distinct)
  local twice=$(( (re - r0) - (de - d0) ))
  paid_twice=$((paid_twice + twice)); in_flight=$((in_flight + lost_here))
  if (( twice > lost_here )); then
    beyond=$((beyond + twice - lost_here))
    problem "$kind" "$twice answers paid twice, $lost_here in flight at the kill ($sent sent, $lk in the ledger)"
  fi
}

trial_save() {
  local k=$1
  kill_at $t_loop "$work/save.log" "$child" save-rubric "$proj" sv "$k"
  count save $was_killed
  check_integrity "$proj" save
  local versions
  versions=$(q "$proj" "SELECT v.version, COUNT(c.id) FROM rubric_versions v JOIN runs r ON r.id = v.run_id
                        LEFT JOIN criteria c ON c.rubric_version_id = v.id WHERE r.name = 'sv' GROUP BY v.id ORDER BY v.version")
  local v n
  while IFS=$'\t' read -r tag v n; do
    [ "$tag" = version ] || continue
    confirmed=$((confirmed + 1))
    if ! grep -qx "$v|$n" <<< "$versions"; then
      lost=$((lost + 1)); problem save "version $v ($n criteria) was reported saved; the file has: $(grep "^$v|" <<< "$versions")"
    fi
  done < "$work/save.log" # a last line cut by the kill has no newline: read skips it
  # Every version whole: a save only adds, so each has as many criteria as the one before or one more.
  local prev=0
  while IFS='|' read -r v n; do
    if (( prev > 0 && (n < prev || n > prev + 1) )); then
      partial=$((partial + 1)); problem save "version $v has $n criteria after $prev"
    fi
    prev=$n
  done <<< "$versions"
}

trial_annotate() {
  local k=$1 who="annotator$1"
  kill_at $t_loop "$work/annotate.log" "$child" annotate "$proj" "$who" "$k"
  count annotate $was_killed
  check_integrity "$proj" annotate
  q "$proj" "SELECT i.ext_id, a.name, n.score, n.note FROM annotations n JOIN items i ON i.id = n.item_id
             JOIN aspects a ON a.id = n.aspect_id WHERE n.annotator = '$who'" > "$work/annotations.txt"
  local out
  out=$(python3 - "$work/annotate.log" "$work/annotations.txt" <<'EOF'
import sys
log, db = sys.argv[1], sys.argv[2]
stored = {}
for line in open(db, encoding="utf-8"):
    item, aspect, score, note = line.rstrip("\n").split("|", 3)
    stored[(item, aspect)] = (float(score), note)
saved, pending = {}, None
confirmed = 0
for line in open(log, encoding="utf-8", errors="replace"):
    if not line.endswith("\n"):
        break  # cut by the kill
    f = line.rstrip("\n").split("\t")
    if len(f) != 5 or f[0] not in ("saving", "saved"):
        continue
    key, value = (f[1], f[2]), (float(f[3]), f[4])
    if f[0] == "saving":
        pending = (key, value)
    else:
        saved[key] = value
        pending = None
        confirmed += 1
lost = []
for key, value in saved.items():
    ok = {value}
    if pending and pending[0] == key:
        ok.add(pending[1])  # the write under way at the kill may have landed
    if stored.get(key) not in ok:
        lost.append(f"{key}: saved {value}, file {stored.get(key)}")
print(confirmed, len(lost))
for l in lost[:5]:
    print(l)
EOF
)
  local n_confirmed n_lost
  read -r n_confirmed n_lost <<< "$(head -1 <<< "$out")"
  confirmed=$((confirmed + n_confirmed))
  if (( n_lost > 0 )); then lost=$((lost + n_lost)); problem annotate "$(tail -n +2 <<< "$out" | tr '\n' ';')"; fi
}

# Round robin over the kinds until each has its share of kills (a try that finished before its kill
# is checked all the same, and tried again).
kinds=(import run save rescore annotate)
declare -A want=()
for ((j = 0; j < 5; j++)); do want[${kinds[j]}]=$(( kills / 5 + (j < kills % 5 ? 1 : 0) )); done
tries=0
for ((i = 0; ; i++)); do
  kind=${kinds[i % 5]}
  done_all=1
  for k in "${kinds[@]}"; do (( ${killed[$k]:-0} < ${want[$k]} )) && done_all=0; done
  (( done_all )) && break
  (( ${killed[$kind]:-0} < ${want[$kind]} )) || continue
  tries=$((tries + 1))
  (( tries <= 3 * kills )) || { problem all "too many tries finished before their kill"; break; }
  case $kind in
    import) trial_import "$i" ;;
    run) run_trial run "r$i" "m$i" ;;
    save) trial_save "$i" ;;
    rescore)
      "$child" save-rubric "$proj" rs "$i" 1 >/dev/null
      run_trial rescore rs rs --resume ;;
    annotate) trial_annotate "$i" ;;
  esac
done

total=0
line=""
for kind in "${kinds[@]}"; do
  total=$((total + ${killed[$kind]:-0}))
  line+=" $kind ${killed[$kind]:-0}"
  [ "${finished[$kind]:-0}" -gt 0 ] && line+=" (+${finished[$kind]} finished first)"
  line+=","
done
echo "kills:${line%,}; $total in all"
echo "integrity failures: $integrity; saves reported and checked: $confirmed, lost: $lost; partial imports or" \
     "versions: $partial; runs not completed on resume: $unfinished"
echo "answers paid twice: $paid_twice; requests in flight at the kills (sent before the kill, answer not in the" \
     "file after it): $in_flight; paid twice beyond those in flight: $beyond"
if (( failures > 0 )); then
  echo "kill-test: $failures failures (seed $seed)"
  exit 1
fi
echo "kill-test: ok"
