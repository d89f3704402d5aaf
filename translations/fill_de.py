#!/usr/bin/env python3
"""Fills translations/rubric_de.ts with the German texts below (run after `ninja rubric_ui_lupdate`).

The translations are written here by hand, keyed by source text, so that a refreshed .ts file
(new or moved strings) can be completed again; the script reports strings it has no German for.
"""
import sys
import xml.etree.ElementTree as ET

DE = {
    # main
    'Build LLM judges that agree with people.': 'LLM-Bewerter bauen, die mit Menschen übereinstimmen.',
    'Project file to open.': 'Zu öffnende Projektdatei.',
    'Pane to show first (dataset, annotate, issues, …).': 'Zuerst gezeigter Bereich (dataset, annotate, issues, …).',
    'Save a PNG of the window to FILE once it is shown, then quit.': 'Das Fenster nach dem Anzeigen als PNG in DATEI speichern und beenden.',
    'Window size for --screenshot, WxH.': 'Fenstergröße für --screenshot, BxH.',
    'Annotate under NAME (remembered).': 'Unter NAME annotieren (wird gemerkt).',
    'No pane named %1; there are: %2': 'Kein Bereich namens %1; vorhanden sind: %2',
    'Cannot write %1': '%1 kann nicht geschrieben werden',
    # annotate
    '1 … 9, 0': '1 … 9, 0',
    'score the focused aspect, then go to the next aspect': 'bewertet den markierten Aspekt und springt zum nächsten',
    'Tab / Shift+Tab, ↓ / ↑': 'Tab / Umschalt+Tab, ↓ / ↑',
    'next / previous aspect': 'nächster / vorheriger Aspekt',
    'Enter': 'Eingabe',
    'save the note and go to the next item': 'Notiz speichern und zum nächsten Element',
    '→ / ←': '→ / ←',
    'next / previous item': 'nächstes / vorheriges Element',
    'Backspace': 'Rücktaste',
    "clear the focused aspect's score": 'Bewertung des markierten Aspekts löschen',
    'N': 'N',
    'write a note (Enter or Esc returns to scoring)': 'Notiz schreiben (Eingabe oder Esc kehrt zum Bewerten zurück)',
    '?': '?',
    'show or hide this sheet': 'diese Übersicht zeigen oder verbergen',
    'Every score is saved the moment you press the key.': 'Jede Bewertung wird in dem Moment gespeichert, in dem Sie die Taste drücken.',
    'Start annotating': 'Annotieren beginnen',
    'Blind (hide judge scores)': 'Blind (Bewerter-Punkte verbergen)',
    'Use 30 suggestions as the train split': '30 Vorschläge als Trainingsteil verwenden',
    '<h2>Who is annotating?</h2><p>Your scores are saved under this name, so that several people can label the same items and their agreement can be measured.</p>':
        '<h2>Wer annotiert?</h2><p>Ihre Bewertungen werden unter diesem Namen gespeichert, damit mehrere Personen dieselben Elemente bewerten und ihre Übereinstimmung gemessen werden kann.</p>',
    'Your name': 'Ihr Name',
    'Change': 'Wechseln',
    'Keys (?)': 'Tasten (?)',
    'Note (optional): N to write, Enter or Esc to return': 'Notiz (optional): N zum Schreiben, Eingabe oder Esc zurück',
    'Source': 'Quelle',
    'Output to score': 'Zu bewertende Ausgabe',
    'stratified by group': 'geschichtet nach Gruppe',
    'stratified by system': 'geschichtet nach System',
    'random': 'zufällig',
    '<b>Label next</b>': '<b>Als Nächstes bewerten</b>',
    'Annotating as <b>%1</b>': 'Annotiert als <b>%1</b>',
    'No project open.': 'Kein Projekt geöffnet.',
    'The project has no items yet.': 'Das Projekt hat noch keine Elemente.',
    'Item %1 of %2': 'Element %1 von %2',
    'id %1': 'ID %1',
    'group %1': 'Gruppe %1',
    'system %1': 'System %1',
    'group %1, system %2': 'Gruppe %1, System %2',
    'Could not save the score: %1': 'Die Bewertung konnte nicht gespeichert werden: %1',
    'Could not clear the score: %1': 'Die Bewertung konnte nicht gelöscht werden: %1',
    'Could not save the note: %1': 'Die Notiz konnte nicht gespeichert werden: %1',
    '%1 of %2 labelled': '%1 von %2 bewertet',
    '%1 of %2 labelled (no train split yet)': '%1 von %2 bewertet (noch kein Trainingsteil)',
    '%1: %2': '%1: %2',
    'Judges — %1': 'Bewerter — %1',
    'item %1': 'Element %1',
    'Could not save the split: %1': 'Die Aufteilung konnte nicht gespeichert werden: %1',
    'Agreement': 'Übereinstimmung',
    "(Krippendorff's α, interval, %1)": '(Krippendorffs α, intervallskaliert, %1)',
    'train split': 'Trainingsteil',
    'all items': 'alle Elemente',
    'Aspect': 'Aspekt',
    'Between people': 'Zwischen Personen',
    '%1 vs people': '%1 gegen Personen',
    '<small>%1 annotators</small>': '<small>%1 Annotatoren</small>',
    'needs a second annotator': 'braucht eine zweite Person',
    '<small>(1 item)</small>': '<small>(1 Element)</small>',
    '<small>(%1 items)</small>': '<small>(%1 Elemente)</small>',
    'Judge agreement is hidden in blind mode.': 'Die Übereinstimmung der Bewerter ist im Blindmodus verborgen.',
    # aspect row
    '%1  (%2–%3)': '%1  (%2–%3)',
    'No definition yet.': 'Noch keine Definition.',
    # dataset
    'Import…': 'Importieren…',
    'Filter by id, group, system or text…': 'Nach ID, Gruppe, System oder Text filtern…',
    'All splits': 'Alle Teile',
    'Train': 'Training',
    'Test': 'Test',
    'Unassigned': 'Nicht zugeordnet',
    'Output': 'Ausgabe',
    'Reference': 'Referenz',
    'All groups': 'Alle Gruppen',
    'All systems': 'Alle Systeme',
    '%1 of %2 items': '%1 von %2 Elementen',
    'Select an item to read it in full.': 'Wählen Sie ein Element, um es vollständig zu lesen.',
    'Item %1': 'Element %1',
    '(no reference)': '(keine Referenz)',
    # import dialog
    'Browse…': 'Durchsuchen…',
    'Import a dataset': 'Datensatz importieren',
    'A JSON, JSONL, CSV or TSV file': 'Eine JSON-, JSONL-, CSV- oder TSV-Datei',
    'From the file name': 'Aus dem Dateinamen',
    'None: map the fields below': 'Keine: Felder unten zuordnen',
    '&File:': '&Datei:',
    '&Preset:': '&Vorlage:',
    'F&ormat:': 'F&ormat:',
    'Fields': 'Felder',
    'Id:': 'ID:',
    'Group (document, prompt):': 'Gruppe (Dokument, Prompt):',
    'System:': 'System:',
    'Source:': 'Quelle:',
    'Output to judge:': 'Zu bewertende Ausgabe:',
    'Reference:': 'Referenz:',
    'Human scores': 'Menschliche Bewertungen',
    'Field': 'Feld',
    'Min': 'Min',
    'Max': 'Max',
    'Add': 'Hinzufügen',
    'Remove': 'Entfernen',
    'First rows': 'Erste Zeilen',
    '&Import': '&Importieren',
    'Datasets (*.json *.jsonl *.ndjson *.csv *.tsv *.tab);;All files (*)': 'Datensätze (*.json *.jsonl *.ndjson *.csv *.tsv *.tab);;Alle Dateien (*)',
    '(not mapped)': '(nicht zugeordnet)',
    '(position in the file)': '(Position in der Datei)',
    'context %1 ← %2': 'Kontext %1 ← %2',
    'the definition of 1 aspect': 'die Definition eines Aspekts',
    'the definitions of %1 aspects': 'die Definitionen von %1 Aspekten',
    'The preset also maps: %1': 'Die Vorlage ordnet außerdem zu: %1',
    'Map at least the output (or the source) field.': 'Ordnen Sie mindestens das Ausgabe- (oder das Quell-)Feld zu.',
    'Nothing was imported: %1': 'Nichts wurde importiert: %1',
    # issues
    'Time': 'Zeit',
    'Kind': 'Art',
    'Run': 'Lauf',
    'Item': 'Element',
    'Message': 'Meldung',
    'Go to item': 'Zum Element',
    'Clear all': 'Alle löschen',
    'No issues: nothing has gone wrong in this project.': 'Keine Probleme: In diesem Projekt ist nichts schiefgegangen.',
    '1 issue. Double-click it to open its item.': '1 Problem. Doppelklicken Sie darauf, um sein Element zu öffnen.',
    '%1 issues, newest first. Double-click one that names an item to open it.':
        '%1 Probleme, neueste zuerst. Doppelklicken Sie auf eines mit Element, um es zu öffnen.',
    # items model
    'Id': 'ID',
    'Group': 'Gruppe',
    'System': 'System',
    'Split': 'Teil',
    # main window
    'Rubric Studio': 'Rubric Studio',
    'Dataset': 'Datensatz',
    'Annotate': 'Annotieren',
    'Issues': 'Probleme',
    '&File': '&Datei',
    '&New Project…': '&Neues Projekt…',
    '&Open Project…': 'Projekt ö&ffnen…',
    'Open &Recent': '&Zuletzt geöffnet',
    '&Import Dataset…': 'Datensatz &importieren…',
    '&Export Scores…': 'Bewertungen &exportieren…',
    '&Settings…': '&Einstellungen…',
    '&Quit': '&Beenden',
    '&View': '&Ansicht',
    'No recent projects': 'Keine zuletzt geöffneten Projekte',
    'Clear the list': 'Liste leeren',
    '%1 — Rubric Studio': '%1 — Rubric Studio',
    'Could not open the project: %1': 'Das Projekt konnte nicht geöffnet werden: %1',
    '%1 already exists; choose another name for the new project.': '%1 existiert bereits; wählen Sie einen anderen Namen für das neue Projekt.',
    'Could not create the project: %1': 'Das Projekt konnte nicht angelegt werden: %1',
    'New project created. Import a dataset to begin (File → Import Dataset…).':
        'Neues Projekt angelegt. Importieren Sie zuerst einen Datensatz (Datei → Datensatz importieren…).',
    'There is no item with id %1 in this project.': 'In diesem Projekt gibt es kein Element mit der ID %1.',
    'No project open: File → Open Project… or New Project…': 'Kein Projekt geöffnet: Datei → Projekt öffnen… oder Neues Projekt…',
    '%1 · %2 items · %3 aspects · %4 judges': '%1 · %2 Elemente · %3 Aspekte · %4 Bewerter',
    'Annotator: %1': 'Annotator: %1',
    'New Project': 'Neues Projekt',
    'Rubric projects (*.rubric)': 'Rubric-Projekte (*.rubric)',
    'Open Project': 'Projekt öffnen',
    'Rubric projects (*.rubric);;All files (*)': 'Rubric-Projekte (*.rubric);;Alle Dateien (*)',
    'Imported %1 items with %2 human scores.': '%1 Elemente mit %2 menschlichen Bewertungen importiert.',
    'Export Scores': 'Bewertungen exportieren',
    'CSV (*.csv);;JSON Lines (*.jsonl);;JSON (*.json)': 'CSV (*.csv);;JSON Lines (*.jsonl);;JSON (*.json)',
    'Export failed: %1': 'Export fehlgeschlagen: %1',
    'Exported the scores of 1 item to %1.': 'Die Bewertungen von 1 Element nach %1 exportiert.',
    'Exported the scores of %1 items to %2.': 'Die Bewertungen von %1 Elementen nach %2 exportiert.',
    'Close': 'Schließen',
    'choose a file ending in .csv, .json or .jsonl': 'wählen Sie eine Datei mit der Endung .csv, .json oder .jsonl',
    'cannot write the file: %1': 'die Datei kann nicht geschrieben werden: %1',
    # settings
    'Hide judge scores while annotating': 'Bewerter-Punkte beim Annotieren verbergen',
    'Settings': 'Einstellungen',
    'System language': 'Systemsprache',
    'Annotator name:': 'Name beim Annotieren:',
    'Language:': 'Sprache:',
    'A new language takes effect the next time the studio starts.': 'Eine neue Sprache gilt ab dem nächsten Start des Studios.',
}

path = sys.argv[1] if len(sys.argv) > 1 else 'translations/rubric_de.ts'
tree = ET.parse(path)
missing = []
for message in tree.getroot().iter('message'):
    source = message.find('source').text
    translation = message.find('translation')
    german = DE.get(source)
    if german is None:
        missing.append(source)
        continue
    for child in list(translation):
        translation.remove(child)
    translation.attrib.pop('type', None)
    if message.get('numerus') == 'yes':
        translation.text = None
        forms = german if isinstance(german, tuple) else (german, german)
        for form in forms:
            ET.SubElement(translation, 'numerusform').text = form
    else:
        translation.text = german if isinstance(german, str) else german[0]
with open(path, 'wb') as out:
    out.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
    tree.write(out, encoding='utf-8', xml_declaration=False)
    out.write(b'\n')
for m in missing:
    print('no German for:', repr(m))
sys.exit(1 if missing else 0)
