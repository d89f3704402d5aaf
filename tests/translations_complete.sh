#!/bin/sh
# Every tr() string of the studio has German: extract the strings from the sources afresh (as
# `ninja update_translations` does) into a scratch copy of rubric_de.ts and let fill_de.py fill
# it; the script names each string it has no German for and fails.
set -eu
src=$1
lupdate_bin=$2
python_bin=${3:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$src/translations/rubric_de.ts" "$work/rubric_de.ts"
# shellcheck disable=SC2046 # the descriptors' paths have no spaces
"$lupdate_bin" -silent -no-obsolete -locations none "$src/ui" "$src/app/studio/main.cpp" "$src/core/stats/Comparison.cpp" "$src/core/report" \
    $(find "$src/core/methods" -name '*Descriptor.cpp' | sort) -ts "$work/rubric_de.ts"
"$python_bin" "$src/translations/fill_de.py" "$work/rubric_de.ts"
# …and the committed file is that result, so the build's .qm files carry it.
if ! cmp -s "$work/rubric_de.ts" "$src/translations/rubric_de.ts"; then
    echo "translations/rubric_de.ts is stale: run 'ninja -C build update_translations && python3 translations/fill_de.py'" >&2
    diff "$src/translations/rubric_de.ts" "$work/rubric_de.ts" | head -20 >&2
    exit 1
fi
