#!/bin/sh
# Every tr() string of the studio has German, and every plural ("%n item(s)") has its English forms:
# extract the strings from the sources afresh (as scripts/update-translations.sh does) into scratch
# copies of rubric_de.ts and rubric_en.ts and let fill_de.py / fill_en.py fill them; each script
# names the strings it has no translation for and fails. The committed files must be that result,
# so that the build's .qm files carry it.
set -eu
src=$1
lupdate_bin=$2
python_bin=${3:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sources="$src/ui $src/app/studio/main.cpp $src/core/stats/Comparison.cpp $src/core/report $(find "$src/core/methods" -name '*Descriptor.cpp' | sort)"
status=0
for lang in de en; do
    cp "$src/translations/rubric_$lang.ts" "$work/rubric_$lang.ts"
    plural=
    [ "$lang" = en ] && plural=-pluralonly
    # shellcheck disable=SC2086 # the paths have no spaces
    "$lupdate_bin" -silent -no-obsolete -locations none $plural $sources -ts "$work/rubric_$lang.ts"
    "$python_bin" "$src/translations/fill_$lang.py" "$work/rubric_$lang.ts" || status=1
    if ! cmp -s "$work/rubric_$lang.ts" "$src/translations/rubric_$lang.ts"; then
        echo "translations/rubric_$lang.ts is stale: run scripts/update-translations.sh" >&2
        diff "$src/translations/rubric_$lang.ts" "$work/rubric_$lang.ts" | head -20 >&2
        status=1
    fi
done
exit $status
