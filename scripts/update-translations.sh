#!/bin/sh
# Refreshes translations/rubric_de.ts from the sources (the studio's tr() strings and the methods'
# parameter descriptors) and fills in the German of translations/fill_de.py; the same extraction
# as ctest's translations_complete.
set -eu
cd "$(dirname "$0")/.."
# shellcheck disable=SC2046 # the descriptors' paths have no spaces
/usr/lib/qt6/bin/lupdate -silent -no-obsolete -locations none ui app/studio/main.cpp core/stats/Comparison.cpp core/report \
    $(find core/methods -name '*Descriptor.cpp' | sort) -ts translations/rubric_de.ts
python3 translations/fill_de.py translations/rubric_de.ts
