#!/bin/sh
# Refreshes translations/rubric_de.ts and rubric_en.ts from the sources (the studio's tr() strings and
# the methods' parameter descriptors) and fills them from translations/fill_de.py and fill_en.py; the
# same extraction as ctest's translations_complete. rubric_en.ts holds only the plural forms
# (lupdate -pluralonly): the source texts are English already.
set -eu
cd "$(dirname "$0")/.."
# shellcheck disable=SC2046 # the descriptors' paths have no spaces
sources="ui app/studio/main.cpp core/stats/Comparison.cpp core/report $(find core/methods -name '*Descriptor.cpp' | sort)"
# shellcheck disable=SC2086
/usr/lib/qt6/bin/lupdate -silent -no-obsolete -locations none $sources -ts translations/rubric_de.ts
# shellcheck disable=SC2086
/usr/lib/qt6/bin/lupdate -silent -no-obsolete -locations none -pluralonly $sources -ts translations/rubric_en.ts
python3 translations/fill_de.py translations/rubric_de.ts
python3 translations/fill_en.py translations/rubric_en.ts
