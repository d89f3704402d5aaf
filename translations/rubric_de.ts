<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>main</name>
    <message>
        <source>Build LLM judges that agree with people.</source>
        <translation>LLM-Bewerter bauen, die mit Menschen übereinstimmen.</translation>
    </message>
    <message>
        <source>Project file to open.</source>
        <translation>Zu öffnende Projektdatei.</translation>
    </message>
    <message>
        <source>Pane to show first (dataset, annotate, issues, …).</source>
        <translation>Zuerst gezeigter Bereich (dataset, annotate, issues, …).</translation>
    </message>
    <message>
        <source>Save a PNG of the window to FILE once it is shown, then quit.</source>
        <translation>Das Fenster nach dem Anzeigen als PNG in DATEI speichern und beenden.</translation>
    </message>
    <message>
        <source>Window size for --screenshot, WxH.</source>
        <translation>Fenstergröße für --screenshot, BxH.</translation>
    </message>
    <message>
        <source>Annotate under NAME (remembered).</source>
        <translation>Unter NAME annotieren (wird gemerkt).</translation>
    </message>
    <message>
        <source>No pane named %1; there are: %2</source>
        <translation>Kein Bereich namens %1; vorhanden sind: %2</translation>
    </message>
    <message>
        <source>Cannot write %1</source>
        <translation>%1 kann nicht geschrieben werden</translation>
    </message>
    <message>
        <source>Save the chart of the shown pane (heatmap, correlation) to FILE (.png or .svg) once it is drawn, then quit.</source>
        <translation>Das Diagramm des gezeigten Bereichs (Heatmap, Korrelation) nach dem Zeichnen in DATEI (.png oder .svg) speichern und beenden.</translation>
    </message>
    <message>
        <source>Judge the heatmap and correlation panes show first.</source>
        <translation>Bewerter, den Heatmap und Korrelation zuerst zeigen.</translation>
    </message>
    <message>
        <source>No judge named %1 in this project</source>
        <translation>Kein Bewerter namens %1 in diesem Projekt</translation>
    </message>
    <message>
        <source>Milliseconds to wait before --screenshot or --export-chart.</source>
        <translation>Millisekunden Wartezeit vor --screenshot oder --export-chart.</translation>
    </message>
</context>
<context>
    <name>rubric::AgreementLabel</name>
    <message>
        <source>&lt;small&gt;(1 item)&lt;/small&gt;</source>
        <translation>&lt;small&gt;(1 Element)&lt;/small&gt;</translation>
    </message>
    <message>
        <source>&lt;small&gt;(%1 items)&lt;/small&gt;</source>
        <translation>&lt;small&gt;(%1 Elemente)&lt;/small&gt;</translation>
    </message>
    <message>
        <source>Agreement</source>
        <translation>Übereinstimmung</translation>
    </message>
    <message>
        <source>(Krippendorff's α, interval, %1)</source>
        <translation>(Krippendorffs α, intervallskaliert, %1)</translation>
    </message>
    <message>
        <source>train split</source>
        <translation>Trainingsteil</translation>
    </message>
    <message>
        <source>all items</source>
        <translation>alle Elemente</translation>
    </message>
    <message>
        <source>Aspect</source>
        <translation>Aspekt</translation>
    </message>
    <message>
        <source>Between people</source>
        <translation>Zwischen Personen</translation>
    </message>
    <message>
        <source>%1 vs people</source>
        <translation>%1 gegen Personen</translation>
    </message>
    <message>
        <source>&lt;small&gt;%1 annotators&lt;/small&gt;</source>
        <translation>&lt;small&gt;%1 Annotatoren&lt;/small&gt;</translation>
    </message>
    <message>
        <source>needs a second annotator</source>
        <translation>braucht eine zweite Person</translation>
    </message>
    <message>
        <source>Judge agreement is hidden in blind mode.</source>
        <translation>Die Übereinstimmung der Bewerter ist im Blindmodus verborgen.</translation>
    </message>
</context>
<context>
    <name>rubric::AnnotatePane</name>
    <message>
        <source>1 … 9, 0</source>
        <translation>1 … 9, 0</translation>
    </message>
    <message>
        <source>score the focused aspect, then go to the next aspect</source>
        <translation>bewertet den markierten Aspekt und springt zum nächsten</translation>
    </message>
    <message>
        <source>Tab / Shift+Tab, ↓ / ↑</source>
        <translation>Tab / Umschalt+Tab, ↓ / ↑</translation>
    </message>
    <message>
        <source>next / previous aspect</source>
        <translation>nächster / vorheriger Aspekt</translation>
    </message>
    <message>
        <source>Enter</source>
        <translation>Eingabe</translation>
    </message>
    <message>
        <source>save the note and go to the next item</source>
        <translation>Notiz speichern und zum nächsten Element</translation>
    </message>
    <message>
        <source>→ / ←</source>
        <translation>→ / ←</translation>
    </message>
    <message>
        <source>next / previous item</source>
        <translation>nächstes / vorheriges Element</translation>
    </message>
    <message>
        <source>Backspace</source>
        <translation>Rücktaste</translation>
    </message>
    <message>
        <source>clear the focused aspect's score</source>
        <translation>Bewertung des markierten Aspekts löschen</translation>
    </message>
    <message>
        <source>N</source>
        <translation>N</translation>
    </message>
    <message>
        <source>write a note (Enter or Esc returns to scoring)</source>
        <translation>Notiz schreiben (Eingabe oder Esc kehrt zum Bewerten zurück)</translation>
    </message>
    <message>
        <source>?</source>
        <translation>?</translation>
    </message>
    <message>
        <source>show or hide this sheet</source>
        <translation>diese Übersicht zeigen oder verbergen</translation>
    </message>
    <message>
        <source>Every score is saved the moment you press the key.</source>
        <translation>Jede Bewertung wird in dem Moment gespeichert, in dem Sie die Taste drücken.</translation>
    </message>
    <message>
        <source>Start annotating</source>
        <translation>Annotieren beginnen</translation>
    </message>
    <message>
        <source>Blind (hide judge scores)</source>
        <translation>Blind (Bewerter-Punkte verbergen)</translation>
    </message>
    <message>
        <source>&lt;h2&gt;Who is annotating?&lt;/h2&gt;&lt;p&gt;Your scores are saved under this name, so that several people can label the same items and their agreement can be measured.&lt;/p&gt;</source>
        <translation>&lt;h2&gt;Wer annotiert?&lt;/h2&gt;&lt;p&gt;Ihre Bewertungen werden unter diesem Namen gespeichert, damit mehrere Personen dieselben Elemente bewerten und ihre Übereinstimmung gemessen werden kann.&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>Ihr Name</translation>
    </message>
    <message>
        <source>Change</source>
        <translation>Wechseln</translation>
    </message>
    <message>
        <source>Keys (?)</source>
        <translation>Tasten (?)</translation>
    </message>
    <message>
        <source>Note (optional): N to write, Enter or Esc to return</source>
        <translation>Notiz (optional): N zum Schreiben, Eingabe oder Esc zurück</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Output to score</source>
        <translation>Zu bewertende Ausgabe</translation>
    </message>
    <message>
        <source>Annotating as &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>Annotiert als &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>Kein Projekt geöffnet.</translation>
    </message>
    <message>
        <source>The project has no items yet.</source>
        <translation>Das Projekt hat noch keine Elemente.</translation>
    </message>
    <message>
        <source>Item %1 of %2</source>
        <translation>Element %1 von %2</translation>
    </message>
    <message>
        <source>id %1</source>
        <translation>ID %1</translation>
    </message>
    <message>
        <source>group %1</source>
        <translation>Gruppe %1</translation>
    </message>
    <message>
        <source>system %1</source>
        <translation>System %1</translation>
    </message>
    <message>
        <source>group %1, system %2</source>
        <translation>Gruppe %1, System %2</translation>
    </message>
    <message>
        <source>Could not save the score: %1</source>
        <translation>Die Bewertung konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>Could not clear the score: %1</source>
        <translation>Die Bewertung konnte nicht gelöscht werden: %1</translation>
    </message>
    <message>
        <source>Could not save the note: %1</source>
        <translation>Die Notiz konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>%1 of %2 labelled</source>
        <translation>%1 von %2 bewertet</translation>
    </message>
    <message>
        <source>%1 of %2 labelled (no train split yet)</source>
        <translation>%1 von %2 bewertet (noch kein Trainingsteil)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Judges — %1</source>
        <translation>Bewerter — %1</translation>
    </message>
</context>
<context>
    <name>rubric::AspectScoreRow</name>
    <message>
        <source>%1  (%2–%3)</source>
        <translation>%1  (%2–%3)</translation>
    </message>
    <message>
        <source>No definition yet.</source>
        <translation>Noch keine Definition.</translation>
    </message>
</context>
<context>
    <name>rubric::CorrelationModel</name>
    <message>
        <source>n/a</source>
        <translation>k. A.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>[%1, %2]</source>
        <translation>[%1, %2]</translation>
    </message>
    <message>
        <source>computing…</source>
        <translation>wird berechnet…</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Bewerter</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Pearson</source>
        <translation>Pearson</translation>
    </message>
    <message>
        <source>Spearman</source>
        <translation>Spearman</translation>
    </message>
    <message>
        <source>Kendall τ-b</source>
        <translation>Kendall τ-b</translation>
    </message>
    <message>
        <source>Pearson 95% CI</source>
        <translation>Pearson 95-%-KI</translation>
    </message>
</context>
<context>
    <name>rubric::CorrelationPane</name>
    <message>
        <source>Dataset level</source>
        <translation>Datensatzebene</translation>
    </message>
    <message>
        <source>Group level (per document, averaged)</source>
        <translation>Gruppenebene (je Dokument, gemittelt)</translation>
    </message>
    <message>
        <source>System level (per-system means)</source>
        <translation>Systemebene (Mittelwerte je System)</translation>
    </message>
    <message>
        <source>Dataset: one correlation over all items. Group: per group (document / prompt), averaged over groups. System: the systems' mean scores correlated.</source>
        <translation>Datensatz: eine Korrelation über alle Elemente. Gruppe: je Gruppe (Dokument / Prompt), über die Gruppen gemittelt. System: die Mittelwerte der Systeme korreliert.</translation>
    </message>
    <message>
        <source>All items</source>
        <translation>Alle Elemente</translation>
    </message>
    <message>
        <source>Train split</source>
        <translation>Trainingsteil</translation>
    </message>
    <message>
        <source>Test split</source>
        <translation>Testteil</translation>
    </message>
    <message>
        <source>Correlations are reported on the held-out test split by default</source>
        <translation>Korrelationen werden standardmäßig auf dem zurückgehaltenen Testteil berichtet</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Elemente</translation>
    </message>
    <message>
        <source>Least-squares fit</source>
        <translation>Ausgleichsgerade</translation>
    </message>
    <message>
        <source>Human score</source>
        <translation>Menschliche Bewertung</translation>
    </message>
    <message>
        <source>Judge score</source>
        <translation>Bewerter-Punktzahl</translation>
    </message>
    <message>
        <source>Pearson per criterion (95% bootstrap interval)</source>
        <translation>Pearson je Kriterium (95-%-Bootstrap-Intervall)</translation>
    </message>
    <message>
        <source>Every judge that scores this aspect, at the chosen level and split</source>
        <translation>Jeder Bewerter dieses Aspekts, auf der gewählten Ebene und Teilmenge</translation>
    </message>
    <message>
        <source>Point at an item to identify it.</source>
        <translation>Zeigen Sie auf einen Punkt, um das Element zu erkennen.</translation>
    </message>
    <message>
        <source>%1 vs human on %2 · %3 · %4</source>
        <translation>%1 gegen Mensch bei %2 · %3 · %4</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; vs human · %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; gegen Mensch · %2</translation>
    </message>
    <message>
        <source>No judge scores this aspect yet.</source>
        <translation>Noch kein Bewerter bewertet diesen Aspekt.</translation>
    </message>
    <message>
        <source>Least-squares fit: judge = %1 + %2 × human</source>
        <translation>Ausgleichsgerade: Bewerter = %1 + %2 × Mensch</translation>
    </message>
    <message>
        <source>Judge vs human</source>
        <translation>Bewerter gegen Mensch</translation>
    </message>
    <message>
        <source>Judge vs human · Pearson %1 at this level (n = %2)</source>
        <translation>Bewerter gegen Mensch · Pearson %1 auf dieser Ebene (n = %2)</translation>
    </message>
    <message>
        <source>Pearson</source>
        <translation>Pearson</translation>
    </message>
    <message>
        <source>Pearson r with human</source>
        <translation>Pearson r mit Mensch</translation>
    </message>
    <message>
        <source>%1 — human %2, judge %3</source>
        <translation>%1 — Mensch %2, Bewerter %3</translation>
    </message>
    <message>
        <source> (and %1 more here)</source>
        <translation> (und %1 weitere hier)</translation>
    </message>
</context>
<context>
    <name>rubric::CriterionScoreModel</name>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Criterion</source>
        <translation>Kriterium</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>Stichprobe</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Punktzahl</translation>
    </message>
    <message>
        <source>Parse</source>
        <translation>Auswertung</translation>
    </message>
</context>
<context>
    <name>rubric::DatasetPane</name>
    <message>
        <source>Import…</source>
        <translation>Importieren…</translation>
    </message>
    <message>
        <source>Filter by id, group, system or text…</source>
        <translation>Nach ID, Gruppe, System oder Text filtern…</translation>
    </message>
    <message>
        <source>All splits</source>
        <translation>Alle Teile</translation>
    </message>
    <message>
        <source>Train</source>
        <translation>Training</translation>
    </message>
    <message>
        <source>Test</source>
        <translation>Test</translation>
    </message>
    <message>
        <source>Unassigned</source>
        <translation>Nicht zugeordnet</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>All groups</source>
        <translation>Alle Gruppen</translation>
    </message>
    <message>
        <source>All systems</source>
        <translation>Alle Systeme</translation>
    </message>
    <message>
        <source>%1 of %2 items</source>
        <translation>%1 von %2 Elementen</translation>
    </message>
    <message>
        <source>Select an item to read it in full.</source>
        <translation>Wählen Sie ein Element, um es vollständig zu lesen.</translation>
    </message>
    <message>
        <source>No project open.</source>
        <translation>Kein Projekt geöffnet.</translation>
    </message>
    <message>
        <source>Item %1</source>
        <translation>Element %1</translation>
    </message>
    <message>
        <source>group %1</source>
        <translation>Gruppe %1</translation>
    </message>
    <message>
        <source>system %1</source>
        <translation>System %1</translation>
    </message>
    <message>
        <source>(no reference)</source>
        <translation>(keine Referenz)</translation>
    </message>
</context>
<context>
    <name>rubric::HeatmapPane</name>
    <message>
        <source>The judge (run or imported scores) whose criteria are shown</source>
        <translation>Der Bewerter (Lauf oder importierte Punktzahlen), dessen Kriterien gezeigt werden</translation>
    </message>
    <message>
        <source>The aspect whose human and judge scores are shown</source>
        <translation>Der Aspekt, dessen menschliche und Bewerter-Punktzahlen gezeigt werden</translation>
    </message>
    <message>
        <source>Colour by score</source>
        <translation>Farbe nach Punktzahl</translation>
    </message>
    <message>
        <source>Colour by residual (judge − human)</source>
        <translation>Farbe nach Abweichung (Bewerter − Mensch)</translation>
    </message>
    <message>
        <source>All items</source>
        <translation>Alle Elemente</translation>
    </message>
    <message>
        <source>Train split</source>
        <translation>Trainingsteil</translation>
    </message>
    <message>
        <source>Test split</source>
        <translation>Testteil</translation>
    </message>
    <message>
        <source>Show only the items of one side of the train/test split</source>
        <translation>Nur die Elemente einer Seite der Trainings-/Testaufteilung zeigen</translation>
    </message>
    <message>
        <source>Click a cell to read the judge's answer; click a column header to sort</source>
        <translation>Klicken Sie auf eine Zelle, um die Antwort des Bewerters zu lesen, auf einen Spaltenkopf, um zu sortieren</translation>
    </message>
    <message>
        <source>The judge's reasoning for the selected answer</source>
        <translation>Die Begründung des Bewerters für die gewählte Antwort</translation>
    </message>
    <message>
        <source>The raw answer as the judge returned it</source>
        <translation>Die Antwort, wie der Bewerter sie zurückgab</translation>
    </message>
    <message>
        <source>Click a cell to read the judge's answer.</source>
        <translation>Klicken Sie auf eine Zelle, um die Antwort des Bewerters zu lesen.</translation>
    </message>
    <message>
        <source>Judge:</source>
        <translation>Bewerter:</translation>
    </message>
    <message>
        <source>Aspect:</source>
        <translation>Aspekt:</translation>
    </message>
    <message>
        <source>Reasoning</source>
        <translation>Begründung</translation>
    </message>
    <message>
        <source>Raw answer</source>
        <translation>Rohantwort</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation><numerusform>%n Element</numerusform><numerusform>%n Elemente</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n criterion column(s)</source>
        <translation><numerusform>%n Kriteriumsspalte</numerusform><numerusform>%n Kriteriumsspalten</numerusform></translation>
    </message>
    <message>
        <source>%1 on %2 · %3 · %4 · %5</source>
        <translation>%1 bei %2 · %3 · %4 · %5</translation>
    </message>
    <message>
        <source>no score</source>
        <translation>keine Punktzahl</translation>
    </message>
    <message>
        <source>%1: %2%3</source>
        <translation>%1: %2%3</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · human score %2</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · menschliche Bewertung %2</translation>
    </message>
    <message>
        <source>No human annotations.</source>
        <translation>Keine menschlichen Annotationen.</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · judge score %2 (all criteria)</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · Bewerter-Punktzahl %2 (alle Kriterien)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt; · &lt;b&gt;%2&lt;/b&gt; · %3&lt;br&gt;%4</source>
        <translation>&lt;b&gt;%1&lt;/b&gt; · &lt;b&gt;%2&lt;/b&gt; · %3&lt;br&gt;%4</translation>
    </message>
    <message>
        <source>The judge has no answer stored for this cell.</source>
        <translation>Für diese Zelle ist keine Antwort des Bewerters gespeichert.</translation>
    </message>
    <message>
        <source>(no reasoning given)</source>
        <translation>(keine Begründung angegeben)</translation>
    </message>
</context>
<context>
    <name>rubric::HeatmapView</name>
    <message>
        <source>low</source>
        <translation>niedrig</translation>
    </message>
    <message>
        <source>high</source>
        <translation>hoch</translation>
    </message>
    <message>
        <source>below</source>
        <translation>darunter</translation>
    </message>
    <message>
        <source>above</source>
        <translation>darüber</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>Punktzahl</translation>
    </message>
    <message>
        <source>Judge − human</source>
        <translation>Bewerter − Mensch</translation>
    </message>
</context>
<context>
    <name>rubric::ImportDialog</name>
    <message>
        <source>Browse…</source>
        <translation>Durchsuchen…</translation>
    </message>
    <message>
        <source>Import a dataset</source>
        <translation>Datensatz importieren</translation>
    </message>
    <message>
        <source>A JSON, JSONL, CSV or TSV file</source>
        <translation>Eine JSON-, JSONL-, CSV- oder TSV-Datei</translation>
    </message>
    <message>
        <source>From the file name</source>
        <translation>Aus dem Dateinamen</translation>
    </message>
    <message>
        <source>None: map the fields below</source>
        <translation>Keine: Felder unten zuordnen</translation>
    </message>
    <message>
        <source>&amp;File:</source>
        <translation>&amp;Datei:</translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation>&amp;Vorlage:</translation>
    </message>
    <message>
        <source>F&amp;ormat:</source>
        <translation>F&amp;ormat:</translation>
    </message>
    <message>
        <source>Fields</source>
        <translation>Felder</translation>
    </message>
    <message>
        <source>Id:</source>
        <translation>ID:</translation>
    </message>
    <message>
        <source>Group (document, prompt):</source>
        <translation>Gruppe (Dokument, Prompt):</translation>
    </message>
    <message>
        <source>System:</source>
        <translation>System:</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>Quelle:</translation>
    </message>
    <message>
        <source>Output to judge:</source>
        <translation>Zu bewertende Ausgabe:</translation>
    </message>
    <message>
        <source>Reference:</source>
        <translation>Referenz:</translation>
    </message>
    <message>
        <source>Human scores</source>
        <translation>Menschliche Bewertungen</translation>
    </message>
    <message>
        <source>Aspect</source>
        <translation>Aspekt</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>Min</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>Max</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>Entfernen</translation>
    </message>
    <message>
        <source>First rows</source>
        <translation>Erste Zeilen</translation>
    </message>
    <message>
        <source>&amp;Import</source>
        <translation>&amp;Importieren</translation>
    </message>
    <message>
        <source>Datasets (*.json *.jsonl *.ndjson *.csv *.tsv *.tab);;All files (*)</source>
        <translation>Datensätze (*.json *.jsonl *.ndjson *.csv *.tsv *.tab);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>(not mapped)</source>
        <translation>(nicht zugeordnet)</translation>
    </message>
    <message>
        <source>(position in the file)</source>
        <translation>(Position in der Datei)</translation>
    </message>
    <message>
        <source>context %1 ← %2</source>
        <translation>Kontext %1 ← %2</translation>
    </message>
    <message>
        <source>The preset also maps: %1</source>
        <translation>Die Vorlage ordnet außerdem zu: %1</translation>
    </message>
    <message>
        <source>Map at least the output (or the source) field.</source>
        <translation>Ordnen Sie mindestens das Ausgabe- (oder das Quell-)Feld zu.</translation>
    </message>
    <message>
        <source>Nothing was imported: %1</source>
        <translation>Nichts wurde importiert: %1</translation>
    </message>
    <message>
        <source>the definition of 1 aspect</source>
        <translation>die Definition eines Aspekts</translation>
    </message>
    <message>
        <source>the definitions of %1 aspects</source>
        <translation>die Definitionen von %1 Aspekten</translation>
    </message>
</context>
<context>
    <name>rubric::IssuesModel</name>
    <message>
        <source>Time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>Item</source>
        <translation>Element</translation>
    </message>
    <message>
        <source>Message</source>
        <translation>Meldung</translation>
    </message>
</context>
<context>
    <name>rubric::IssuesPane</name>
    <message>
        <source>Go to item</source>
        <translation>Zum Element</translation>
    </message>
    <message>
        <source>Clear all</source>
        <translation>Alle löschen</translation>
    </message>
    <message>
        <source>No issues: nothing has gone wrong in this project.</source>
        <translation>Keine Probleme: In diesem Projekt ist nichts schiefgegangen.</translation>
    </message>
    <message>
        <source>1 issue. Double-click it to open its item.</source>
        <translation>1 Problem. Doppelklicken Sie darauf, um sein Element zu öffnen.</translation>
    </message>
    <message>
        <source>%1 issues, newest first. Double-click one that names an item to open it.</source>
        <translation>%1 Probleme, neueste zuerst. Doppelklicken Sie auf eines mit Element, um es zu öffnen.</translation>
    </message>
</context>
<context>
    <name>rubric::ItemsModel</name>
    <message>
        <source>Id</source>
        <translation>ID</translation>
    </message>
    <message>
        <source>Group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>System</source>
        <translation>System</translation>
    </message>
    <message>
        <source>Split</source>
        <translation>Teil</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>Quelle</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>Ausgabe</translation>
    </message>
</context>
<context>
    <name>rubric::MainWindow</name>
    <message>
        <source>Rubric Studio</source>
        <translation>Rubric Studio</translation>
    </message>
    <message>
        <source>Dataset</source>
        <translation>Datensatz</translation>
    </message>
    <message>
        <source>Annotate</source>
        <translation>Annotieren</translation>
    </message>
    <message>
        <source>Issues</source>
        <translation>Probleme</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>&amp;Datei</translation>
    </message>
    <message>
        <source>&amp;New Project…</source>
        <translation>&amp;Neues Projekt…</translation>
    </message>
    <message>
        <source>&amp;Open Project…</source>
        <translation>Projekt ö&amp;ffnen…</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>&amp;Zuletzt geöffnet</translation>
    </message>
    <message>
        <source>&amp;Import Dataset…</source>
        <translation>Datensatz &amp;importieren…</translation>
    </message>
    <message>
        <source>&amp;Export Scores…</source>
        <translation>Bewertungen &amp;exportieren…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>&amp;Einstellungen…</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>&amp;Beenden</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>&amp;Ansicht</translation>
    </message>
    <message>
        <source>No recent projects</source>
        <translation>Keine zuletzt geöffneten Projekte</translation>
    </message>
    <message>
        <source>Clear the list</source>
        <translation>Liste leeren</translation>
    </message>
    <message>
        <source>%1 — Rubric Studio</source>
        <translation>%1 — Rubric Studio</translation>
    </message>
    <message>
        <source>Could not open the project: %1</source>
        <translation>Das Projekt konnte nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>%1 already exists; choose another name for the new project.</source>
        <translation>%1 existiert bereits; wählen Sie einen anderen Namen für das neue Projekt.</translation>
    </message>
    <message>
        <source>Could not create the project: %1</source>
        <translation>Das Projekt konnte nicht angelegt werden: %1</translation>
    </message>
    <message>
        <source>New project created. Import a dataset to begin (File → Import Dataset…).</source>
        <translation>Neues Projekt angelegt. Importieren Sie zuerst einen Datensatz (Datei → Datensatz importieren…).</translation>
    </message>
    <message>
        <source>There is no item with id %1 in this project.</source>
        <translation>In diesem Projekt gibt es kein Element mit der ID %1.</translation>
    </message>
    <message>
        <source>No project open: File → Open Project… or New Project…</source>
        <translation>Kein Projekt geöffnet: Datei → Projekt öffnen… oder Neues Projekt…</translation>
    </message>
    <message>
        <source>%1 · %2 items · %3 aspects · %4 judges</source>
        <translation>%1 · %2 Elemente · %3 Aspekte · %4 Bewerter</translation>
    </message>
    <message>
        <source>Annotator: %1</source>
        <translation>Annotator: %1</translation>
    </message>
    <message>
        <source>New Project</source>
        <translation>Neues Projekt</translation>
    </message>
    <message>
        <source>Rubric projects (*.rubric)</source>
        <translation>Rubric-Projekte (*.rubric)</translation>
    </message>
    <message>
        <source>Open Project</source>
        <translation>Projekt öffnen</translation>
    </message>
    <message>
        <source>Rubric projects (*.rubric);;All files (*)</source>
        <translation>Rubric-Projekte (*.rubric);;Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Export Scores</source>
        <translation>Bewertungen exportieren</translation>
    </message>
    <message>
        <source>CSV (*.csv);;JSON Lines (*.jsonl);;JSON (*.json)</source>
        <translation>CSV (*.csv);;JSON Lines (*.jsonl);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Export failed: %1</source>
        <translation>Export fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Imported %1 items with %2 human scores.</source>
        <translation>%1 Elemente mit %2 menschlichen Bewertungen importiert.</translation>
    </message>
    <message>
        <source>Exported the scores of 1 item to %1.</source>
        <translation>Die Bewertungen von 1 Element nach %1 exportiert.</translation>
    </message>
    <message>
        <source>Exported the scores of %1 items to %2.</source>
        <translation>Die Bewertungen von %1 Elementen nach %2 exportiert.</translation>
    </message>
    <message>
        <source>Heatmap</source>
        <translation>Heatmap</translation>
    </message>
    <message>
        <source>Correlation</source>
        <translation>Korrelation</translation>
    </message>
    <message>
        <source>Export &amp;Chart…</source>
        <translation>&amp;Diagramm exportieren…</translation>
    </message>
    <message>
        <source>Save the chart of the current pane as a PNG image or an SVG drawing</source>
        <translation>Das Diagramm des aktuellen Bereichs als PNG-Bild oder SVG-Zeichnung speichern</translation>
    </message>
    <message>
        <source>The %1 pane has no chart to export.</source>
        <translation>Der Bereich %1 hat kein Diagramm zum Exportieren.</translation>
    </message>
    <message>
        <source>There is no chart to export yet: no judge scores this aspect.</source>
        <translation>Noch kein Diagramm zum Exportieren: kein Bewerter bewertet diesen Aspekt.</translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation>Diagramm exportieren</translation>
    </message>
    <message>
        <source>Chart export failed: %1</source>
        <translation>Diagrammexport fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Saved the chart to %1.</source>
        <translation>Diagramm nach %1 gespeichert.</translation>
    </message>
</context>
<context>
    <name>rubric::MessageBar</name>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>rubric::ScoreExport</name>
    <message>
        <source>choose a file ending in .csv, .json or .jsonl</source>
        <translation>wählen Sie eine Datei mit der Endung .csv, .json oder .jsonl</translation>
    </message>
    <message>
        <source>cannot write the file: %1</source>
        <translation>die Datei kann nicht geschrieben werden: %1</translation>
    </message>
</context>
<context>
    <name>rubric::ScoreModel</name>
    <message>
        <source>(not used) %1</source>
        <translation>(nicht verwendet) %1</translation>
    </message>
    <message>
        <source>%1 — %2: %3</source>
        <translation>%1 — %2: %3</translation>
    </message>
    <message>
        <source>no score</source>
        <translation>keine Punktzahl</translation>
    </message>
    <message>
        <source>Human</source>
        <translation>Mensch</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Bewerter</translation>
    </message>
    <message>
        <source>Mean human score (%1)</source>
        <translation>Mittlere menschliche Bewertung (%1)</translation>
    </message>
    <message>
        <source>Aggregated judge score of %1 (%2)</source>
        <translation>Zusammengefasste Bewerter-Punktzahl von %1 (%2)</translation>
    </message>
</context>
<context>
    <name>rubric::SettingsDialog</name>
    <message>
        <source>Hide judge scores while annotating</source>
        <translation>Bewerter-Punkte beim Annotieren verbergen</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>System language</source>
        <translation>Systemsprache</translation>
    </message>
    <message>
        <source>Annotator name:</source>
        <translation>Name beim Annotieren:</translation>
    </message>
    <message>
        <source>Language:</source>
        <translation>Sprache:</translation>
    </message>
    <message>
        <source>A new language takes effect the next time the studio starts.</source>
        <translation>Eine neue Sprache gilt ab dem nächsten Start des Studios.</translation>
    </message>
</context>
<context>
    <name>rubric::SuggestionBox</name>
    <message>
        <source>Use 30 suggestions as the train split</source>
        <translation>30 Vorschläge als Trainingsteil verwenden</translation>
    </message>
    <message>
        <source>stratified by group</source>
        <translation>geschichtet nach Gruppe</translation>
    </message>
    <message>
        <source>stratified by system</source>
        <translation>geschichtet nach System</translation>
    </message>
    <message>
        <source>random</source>
        <translation>zufällig</translation>
    </message>
    <message>
        <source>&lt;b&gt;Label next&lt;/b&gt;</source>
        <translation>&lt;b&gt;Als Nächstes bewerten&lt;/b&gt;</translation>
    </message>
    <message>
        <source>item %1</source>
        <translation>Element %1</translation>
    </message>
    <message>
        <source>Could not save the split: %1</source>
        <translation>Die Aufteilung konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>most informative (judges disagree)</source>
        <translation>am aufschlussreichsten (Bewerter uneinig)</translation>
    </message>
    <message>
        <source>Stratified: every group (or system) gets a turn before any gets a second item. Most informative: the items the project's judges disagree on most come first.</source>
        <translation>Geschichtet: jede Gruppe (oder jedes System) kommt an die Reihe, bevor eine ein zweites Element bekommt. Am aufschlussreichsten: die Elemente, bei denen die Bewerter des Projekts am meisten uneins sind, zuerst.</translation>
    </message>
</context>
</TS>
