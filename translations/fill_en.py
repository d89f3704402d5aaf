#!/usr/bin/env python3
"""Fills translations/rubric_en.ts with the English plural forms of the source texts' "%n …(s)".

The source texts are English already; rubric_en.ts is extracted with `lupdate -pluralonly` and holds
only the numerus messages, so that "%n item(s)" reads "1 item" and "2 items". The script names a
numerus string that has no forms below and fails (ctest's translations_complete runs it).
"""
import sys

from tsfill import fill

EN = {
    '%Ln item(s)': ('%Ln item', '%Ln items'),
    '%n item(s)': ('%n item', '%n items'),
    '%n aspect(s)': ('%n aspect', '%n aspects'),
    '%n judge(s)': ('%n judge', '%n judges'),
    '%Ln human score(s)': ('%Ln human score', '%Ln human scores'),
    'Imported %Ln item(s) with %1.': ('Imported %Ln item with %1.', 'Imported %Ln items with %1.'),
    'Exported the scores of %Ln item(s) to %1.': ('Exported the scores of %Ln item to %1.',
                                                 'Exported the scores of %Ln items to %1.'),
    'the definition(s) of %n aspect(s)': ('the definition of %n aspect', 'the definitions of %n aspects'),
    'answered on %n item(s)': ('answered on %n item', 'answered on %n items'),
    "Run '%1' done: %Ln item(s) scored, %2 without a score; %3.": ("Run '%1' done: %Ln item scored, %2 without a score; %3.",
                                                                  "Run '%1' done: %Ln items scored, %2 without a score; %3."),
    '%Ln call(s) sent, %1 from the cache': ('%Ln call sent, %1 from the cache', '%Ln calls sent, %1 from the cache'),
    'Literature (%n paper(s))': ('Literature (%n paper)', 'Literature (%n papers)'),
    'Refused by the endpoint (%n item(s)):': ('Refused by the endpoint (%n item):', 'Refused by the endpoint (%n items):'),
    "%n proposal(s) for %1. Uncheck those to reject, then add the accepted ones; their scores come with the judge's next run (one call per item and node).":
        ("%n proposal for %1. Uncheck it to reject it, then add it if accepted; its scores come with the judge's next run (one call per item and node).",
         "%n proposals for %1. Uncheck those to reject, then add the accepted ones; their scores come with the judge's next run (one call per item and node)."),
    '%n criterion column(s)': ('%n criterion column', '%n criterion columns'),
    ' · %n retry(s)': (' · %n retry', ' · %n retries'),
    '%n change(s) from version %1 to version %2.': ('%n change from version %1 to version %2.',
                                                   '%n changes from version %1 to version %2.'),
    ' — unsaved changes (%n edit(s))': (' — unsaved changes (%n edit)', ' — unsaved changes (%n edits)'),
    "%n item(s) refused by the endpoint (see Issues; tick 'Ask refused items again' and press Resume to ask them again).":
        ("%n item refused by the endpoint (see Issues; tick 'Ask refused items again' and press Resume to ask it again).",
         "%n items refused by the endpoint (see Issues; tick 'Ask refused items again' and press Resume to ask them again)."),
    # HD-Eval fidelity
    '%n group(s) have items on both sides of the split: the test figures are not on unseen groups (draw the split by group)':
        ('%n group has items on both sides of the split: the test figures are not on unseen groups (draw the split by group)',
         '%n groups have items on both sides of the split: the test figures are not on unseen groups (draw the split by group)'),
}

if __name__ == '__main__':
    sys.exit(fill(sys.argv[1] if len(sys.argv) > 1 else 'translations/rubric_en.ts', EN, 'English'))
