#!/usr/bin/env bash
# The user's copy of the example project survives a rebuild (issue 17.1): the studio's first start
# makes the copy from the template and opens it; a score written into the copy is still there after
# the CLI changes and the build regenerates the template; a later start opens the same file.
#
#   example_copy_survives_rebuild.sh BUILD_DIR [TARGET]
# TARGET is what the rebuild builds: "all" (default; every target, a no-op but for the template
# when the tree is built, as in scripts/test.sh) or "example_project" for a quick local check.
set -euo pipefail
build=$(cd "$1" && pwd)
target=${2:-all}
studio=$build/bin/rubric-studio
cli=$build/bin/rubric
template=$build/example/summeval.template.rubric

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Our own settings and data location, never the user's (the copy lands under XDG_DATA_HOME).
export HOME=$work/home XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data QT_QPA_PLATFORM=offscreen
mkdir -p "$HOME"
copy="$XDG_DATA_HOME/RubricStudio/Rubric Studio/examples/summeval.rubric"
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --build "$build" --target example_project >/dev/null
[ -f "$template" ] || fail "the build made no template at $template"

# First start, no project named: the studio makes the copy and opens it (it becomes the recent project).
"$studio" --screenshot "$work/first.png" --delay 200 >/dev/null 2>"$work/studio.log" || { cat "$work/studio.log"; fail "studio"; }
[ -f "$copy" ] || fail "the first start made no copy at $copy"
grep -q "examples/summeval.rubric" "$XDG_CONFIG_HOME/RubricStudio/Rubric Studio.conf" \
    || fail "the first start did not open the copy (not in the recent projects)"

# A score of our own in the copy.
printf 'item_id,annotator,aspect,score\n0,tester,coherence,2\n' >"$work/score.csv"
"$cli" import-annotations "$work/score.csv" --project "$copy" >/dev/null
score() { # how many scores of 2 by "tester" the copy holds
    python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(
        "SELECT COUNT(*) FROM annotations WHERE annotator = ? AND score = 2", ("tester",)).fetchone()[0])' "$copy"
}
[ "$(score)" = 1 ] || fail "the score was not written into the copy"
inode=$(stat -c %i "$copy")
before=$(stat -c %Y.%i "$template")

# The CLI changes (as after a pull): the build regenerates the template, and only the template.
touch "$cli"
cmake --build "$build" --target "$target" >"$work/build.log" 2>&1 || { tail -20 "$work/build.log"; fail "rebuild"; }
[ "$(stat -c %Y.%i "$template")" != "$before" ] || fail "the rebuild did not regenerate the template"
[ "$(stat -c %i "$copy")" = "$inode" ] || fail "the copy was replaced"
[ "$(score)" = 1 ] || fail "the score is gone from the copy after the rebuild"

# The next start (--example, as scripts/run-studio.sh does) opens the same copy, score and all.
"$studio" --example --screenshot "$work/again.png" --delay 200 >/dev/null 2>>"$work/studio.log" || fail "studio again"
[ "$(stat -c %i "$copy")" = "$inode" ] || fail "the second start replaced the copy"
[ "$(score)" = 1 ] || fail "the score is gone after the second start"
echo "ok: $copy kept its score across the rebuild of '$target'"
