<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>CriterionDetail</name>
    <message>
        <source>enabled</source>
        <translation>eingeschaltet</translation>
    </message>
    <message>
        <source>disabled</source>
        <translation>ausgeschaltet</translation>
    </message>
    <message>
        <source>Origin:</source>
        <translation>Herkunft:</translation>
    </message>
    <message>
        <source>Edited</source>
        <translation>Bearbeitet</translation>
    </message>
    <message>
        <source>Edited by %1</source>
        <translation>Bearbeitet von %1</translation>
    </message>
    <message>
        <source> on %1</source>
        <translation> am %1</translation>
    </message>
    <message>
        <source>%1%2; the method's text was:</source>
        <translation>%1%2; der Text der Methode war:</translation>
    </message>
    <message>
        <source>Proposed after wrong-prediction event %1 (t = %2) and refined %3 time(s).</source>
        <translation>Vorgeschlagen nach Fehlvorhersage-Ereignis %1 (t = %2) und %3-mal verfeinert.</translation>
    </message>
    <message>
        <source>train Pearson %1</source>
        <translation>Training-Pearson %1</translation>
    </message>
    <message>
        <source>train Spearman %1</source>
        <translation>Training-Spearman %1</translation>
    </message>
    <message>
        <source>reward %1</source>
        <translation>Belohnung %1</translation>
    </message>
    <message>
        <source>selected rank %1</source>
        <translation>Auswahlrang %1</translation>
    </message>
    <message>
        <source>%1 samples seen</source>
        <translation>%1 Beispiele gesehen</translation>
    </message>
    <message>
        <source>measured with the method's text</source>
        <translation>mit dem Text der Methode gemessen</translation>
    </message>
    <message>
        <source>Not selected: %1</source>
        <translation>Nicht ausgewählt: %1</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Reward history</source>
        <translation>Verlauf der Belohnung</translation>
    </message>
    <message>
        <source>update: reward</source>
        <translation>Aktualisierung: Belohnung</translation>
    </message>
    <message>
        <source>%1 %2 (%3 sent, the rest from the cache)</source>
        <translation>%1 %2 (%3 gesendet, der Rest aus dem Cache)</translation>
    </message>
    <message>
        <source>Judge calls of the preparation</source>
        <translation>Aufrufe des Bewerters in der Vorbereitung</translation>
    </message>
    <message numerus="yes">
        <source>Literature (%n paper(s))</source>
        <translation><numerusform>Literatur (%n Artikel)</numerusform><numerusform>Literatur (%n Artikel)</numerusform></translation>
    </message>
    <message>
        <source>your summary, %1</source>
        <translation>Ihre Zusammenfassung, %1</translation>
    </message>
    <message>
        <source>summarised by the generator from %1</source>
        <translation>vom Generator zusammengefasst aus %1</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>Parameter</translation>
    </message>
    <message>
        <source>Scoring:</source>
        <translation>Bewertung:</translation>
    </message>
    <message numerus="yes">
        <source>Refused by the endpoint (%n item(s)):</source>
        <translation><numerusform>Vom Endpunkt abgelehnt (%n Element):</numerusform><numerusform>Vom Endpunkt abgelehnt (%n Elemente):</numerusform></translation>
    </message>
    <message>
        <source>Skipped when the judge runs again; 'rubric run … --retry-failed' asks them again (e.g. with --set max_source_tokens=N).</source>
        <translation>Werden beim nächsten Lauf übersprungen; 'rubric run … --retry-failed' fragt sie erneut an (z. B. mit --set max_source_tokens=N).</translation>
    </message>
</context>
<context>
    <name>RubricCommands</name>
    <message>
        <source>Add %1</source>
        <translation>%1 hinzufügen</translation>
    </message>
    <message>
        <source>Delete %1</source>
        <translation>%1 löschen</translation>
    </message>
    <message>
        <source>Edit text of %1</source>
        <translation>Text von %1 bearbeiten</translation>
    </message>
    <message>
        <source>Move %1 up</source>
        <translation>%1 nach oben</translation>
    </message>
    <message>
        <source>Move %1 down</source>
        <translation>%1 nach unten</translation>
    </message>
    <message>
        <source>Enable %1</source>
        <translation>%1 einschalten</translation>
    </message>
    <message>
        <source>Disable %1</source>
        <translation>%1 ausschalten</translation>
    </message>
</context>
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
    <message>
        <source>Open your copy of the example project (%1), made from the built template the first time and never replaced. The first start without a PROJECT does the same.</source>
        <translation>Ihre Kopie des Beispielprojekts öffnen (%1); sie wird beim ersten Mal aus der gebauten Vorlage angelegt und nie ersetzt. Der erste Start ohne PROJEKT tut dasselbe.</translation>
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
    <message>
        <source>Constant groups: left out</source>
        <translation>Konstante Gruppen: weggelassen</translation>
    </message>
    <message>
        <source>Constant groups: count as 1</source>
        <translation>Konstante Gruppen: zählen als 1</translation>
    </message>
    <message>
        <source>Group level: a group whose scores are all equal has no correlation. Left out: groups with constant human or judge scores are skipped (G-Eval, UniEval). Count as 1: a group with constant human scores counts as 1 and one with constant judge scores is skipped (PairS, HypoEval).</source>
        <translation>Gruppenebene: Eine Gruppe mit lauter gleichen Bewertungen hat keine Korrelation. Weggelassen: Gruppen mit konstanten menschlichen oder Bewerter-Punktzahlen werden übersprungen (G-Eval, UniEval). Zählen als 1: Eine Gruppe mit konstanten menschlichen Punktzahlen zählt als 1, eine mit konstanten Bewerter-Punktzahlen wird übersprungen (PairS, HypoEval).</translation>
    </message>
    <message>
        <source>Cannot read the project: %1</source>
        <translation>Das Projekt kann nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Cannot read the scores: %1</source>
        <translation>Die Punktzahlen können nicht gelesen werden: %1</translation>
    </message>
    <message>
        <source>Group level, PairS/HypoEval convention: a group with constant human scores counts as 1 (%1 groups); left out: %2 with constant judge scores, %3 with fewer than 2 items; %4 groups averaged.</source>
        <translation>Gruppenebene, Konvention von PairS/HypoEval: Eine Gruppe mit konstanten menschlichen Punktzahlen zählt als 1 (%1 Gruppen); weggelassen: %2 mit konstanten Bewerter-Punktzahlen, %3 mit weniger als 2 Elementen; %4 Gruppen gemittelt.</translation>
    </message>
    <message>
        <source>Group level, G-Eval/UniEval convention: groups with constant scores are left out: %1 with constant human scores, %2 with constant judge scores, %3 with fewer than 2 items; %4 groups averaged.</source>
        <translation>Gruppenebene, Konvention von G-Eval/UniEval: Gruppen mit konstanten Punktzahlen werden weggelassen: %1 mit konstanten menschlichen Punktzahlen, %2 mit konstanten Bewerter-Punktzahlen, %3 mit weniger als 2 Elementen; %4 Gruppen gemittelt.</translation>
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
    <message>
        <source>Item %1</source>
        <translation>Element %1</translation>
    </message>
    <message>
        <source>Group: %1</source>
        <translation>Gruppe: %1</translation>
    </message>
    <message>
        <source>System: %1</source>
        <translation>System: %1</translation>
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
    <message>
        <source>Scale</source>
        <translation>Skala</translation>
    </message>
    <message>
        <source>from the data</source>
        <translation>aus den Daten</translation>
    </message>
    <message>
        <source>Checked: the smallest and largest score in the file, widened to 0–1, 1–3, 1–5 or 1–10 when one holds them (an aspect already in the project keeps its scale). Unchecked: Min and Max; a score outside them refuses the import.</source>
        <translation>Angehakt: die kleinste und größte Bewertung in der Datei, erweitert auf 0–1, 1–3, 1–5 oder 1–10, wenn eine davon sie umfasst (ein Aspekt, der schon im Projekt ist, behält seine Skala). Nicht angehakt: Min und Max; eine Bewertung außerhalb lehnt den Import ab.</translation>
    </message>
    <message>
        <source>The import would be refused: %1</source>
        <translation>Der Import würde abgelehnt: %1</translation>
    </message>
    <message>
        <source>%1 %2 (inferred from the data)</source>
        <translation>%1 %2 (aus den Daten abgeleitet)</translation>
    </message>
    <message>
        <source>%1 %2 (as in the project)</source>
        <translation>%1 %2 (wie im Projekt)</translation>
    </message>
    <message>
        <source>%1 %2 (as set)</source>
        <translation>%1 %2 (wie eingestellt)</translation>
    </message>
    <message>
        <source>Scales: %1</source>
        <translation>Skalen: %1</translation>
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
    <message>
        <source>Judge &amp;&amp; Run</source>
        <translation>Bewerter &amp;&amp; Lauf</translation>
    </message>
    <message>
        <source>Rubric</source>
        <translation>Rubrik</translation>
    </message>
    <message>
        <source>No project is open.</source>
        <translation>Kein Projekt geöffnet.</translation>
    </message>
    <message>
        <source>Unknown rubric format '%1': use .md or .json.</source>
        <translation>Unbekanntes Rubrikformat '%1': verwenden Sie .md oder .json.</translation>
    </message>
    <message>
        <source>Cannot write the file: %1</source>
        <translation>Die Datei kann nicht geschrieben werden: %1</translation>
    </message>
    <message>
        <source>Export Rubric</source>
        <translation>Rubrik exportieren</translation>
    </message>
    <message>
        <source>Markdown (*.md);;JSON (*.json)</source>
        <translation>Markdown (*.md);;JSON (*.json)</translation>
    </message>
    <message>
        <source>Rubric export failed: %1</source>
        <translation>Rubrikexport fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Saved the rubric to %1.</source>
        <translation>Rubrik nach %1 gespeichert.</translation>
    </message>
    <message>
        <source>Could not open the example project: %1</source>
        <translation>Das Beispielprojekt konnte nicht geöffnet werden: %1</translation>
    </message>
    <message>
        <source>Scales inferred from the data: %1.</source>
        <translation>Aus den Daten abgeleitete Skalen: %1.</translation>
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
    <name>rubric::MethodParams</name>
    <message>
        <source>G-Eval: generated evaluation steps, then one scoring call per item (Liu et al., 2023).</source>
        <translation>G-Eval: generierte Bewertungsschritte, dann ein Bewertungsaufruf je Element (Liu et al., 2023).</translation>
    </message>
    <message>
        <source>Weight the scale by logprobs</source>
        <translation>Skala mit Logprobs gewichten</translation>
    </message>
    <message>
        <source>Ask for top_logprobs and score the probability-weighted mean of the scale tokens (one call per item). Off: sample n answers and average them, as the paper does for models without logprobs.</source>
        <translation>top_logprobs anfordern und den wahrscheinlichkeitsgewichteten Mittelwert der Skalentokens nehmen (ein Aufruf je Element). Aus: n Antworten ziehen und mitteln, wie der Artikel es für Modelle ohne Logprobs tut.</translation>
    </message>
    <message>
        <source>Samples n</source>
        <translation>Stichproben n</translation>
    </message>
    <message>
        <source>Answers sampled per item without logprobs (paper: n = 20).</source>
        <translation>Gezogene Antworten je Element ohne Logprobs (Artikel: n = 20).</translation>
    </message>
    <message>
        <source>Temperature</source>
        <translation>Temperatur</translation>
    </message>
    <message>
        <source>Sampling temperature of the scoring calls (paper: 1 with n = 20 samples).</source>
        <translation>Sampling-Temperatur der Bewertungsaufrufe (Artikel: 1 bei n = 20 Stichproben).</translation>
    </message>
    <message>
        <source>Max tokens</source>
        <translation>Max. Tokens</translation>
    </message>
    <message>
        <source>Largest answer of a scoring call; the score is the first token (upstream: 5).</source>
        <translation>Längste Antwort eines Bewertungsaufrufs; die Bewertung ist das erste Token (Originalcode: 5).</translation>
    </message>
    <message>
        <source>Top logprobs</source>
        <translation>Top-Logprobs</translation>
    </message>
    <message>
        <source>Alternatives per token asked for with logprobs (the most OpenAI allows: 20).</source>
        <translation>Mit Logprobs erfragte Alternativen je Token (das Maximum bei OpenAI: 20).</translation>
    </message>
    <message>
        <source>HypoEval: hypotheses learned from about 30 annotated train items, then one call per item and hypothesis (Li et al., 2025).</source>
        <translation>HypoEval: Hypothesen, gelernt aus etwa 30 annotierten Trainingselementen, dann ein Aufruf je Element und Hypothese (Li et al., 2025).</translation>
    </message>
    <message>
        <source>|S_init|</source>
        <translation>|S_init|</translation>
    </message>
    <message>
        <source>Annotated train samples shown to the generator to propose the first hypotheses (paper: 5).</source>
        <translation>Annotierte Trainingsbeispiele, die der Generator für die ersten Hypothesen sieht (Artikel: 5).</translation>
    </message>
    <message>
        <source>|H_init|</source>
        <translation>|H_init|</translation>
    </message>
    <message>
        <source>Hypotheses proposed from the initial samples (paper: 5).</source>
        <translation>Aus den Anfangsbeispielen vorgeschlagene Hypothesen (Artikel: 5).</translation>
    </message>
    <message>
        <source>Hypotheses per call</source>
        <translation>Hypothesen je Aufruf</translation>
    </message>
    <message>
        <source>Hypotheses asked for in one generation or refinement call (inferred from the upstream prompts: 5).</source>
        <translation>In einem Erzeugungs- oder Verfeinerungsaufruf erbetene Hypothesen (aus den Originalprompts erschlossen: 5).</translation>
    </message>
    <message>
        <source>k</source>
        <translation>k</translation>
    </message>
    <message>
        <source>Top-k hypotheses by UCB reward that score each train sample during the update (paper: 10).</source>
        <translation>Die k besten Hypothesen nach UCB-Belohnung, die während der Aktualisierung jedes Trainingsbeispiel bewerten (Artikel: 10).</translation>
    </message>
    <message>
        <source>θ</source>
        <translation>θ</translation>
    </message>
    <message>
        <source>Wrong-prediction threshold: a hypothesis's score counts as wrong when it is further than θ from the human score (paper: 0.5). Given on the paper's 1–5 scale; the run scales it to the aspect's scale (θ·R/4 for a range R).</source>
        <translation>Schwelle für falsche Vorhersagen: Die Bewertung einer Hypothese gilt als falsch, wenn sie weiter als θ von der menschlichen Bewertung entfernt ist (Artikel: 0,5). Angegeben auf der Skala 1–5 des Artikels; der Lauf rechnet sie auf die Skala des Aspekts um (θ·R/4 bei einer Spanne R).</translation>
    </message>
    <message>
        <source>α</source>
        <translation>α</translation>
    </message>
    <message>
        <source>UCB exploration coefficient: larger values try rarely used hypotheses more (paper: 0.5).</source>
        <translation>UCB-Erkundungskoeffizient: größere Werte probieren selten genutzte Hypothesen öfter (Artikel: 0,5).</translation>
    </message>
    <message>
        <source>a</source>
        <translation>a</translation>
    </message>
    <message>
        <source>Reward of a prediction is a − b·error² (paper: a = 1).</source>
        <translation>Die Belohnung einer Vorhersage ist a − b·Fehler² (Artikel: a = 1).</translation>
    </message>
    <message>
        <source>b</source>
        <translation>b</translation>
    </message>
    <message>
        <source>Reward of a prediction is a − b·error² (paper: b = 1/16). Given on the paper's 1–5 scale; the run scales it to the aspect's scale (b·16/R² for a range R).</source>
        <translation>Belohnung einer Vorhersage ist a − b·Fehler² (Artikel: b = 1/16). Angegeben auf der Skala 1–5 des Artikels; der Lauf rechnet ihn auf die Skala des Aspekts um (b·16/R² bei einer Spanne R).</translation>
    </message>
    <message>
        <source>w_hyp</source>
        <translation>w_hyp</translation>
    </message>
    <message>
        <source>Wrong top-k predictions after which a sample goes to the wrong-sample bank (not in the paper; inferred: 3).</source>
        <translation>Falsche Top-k-Vorhersagen, nach denen ein Beispiel in die Fehlerbank kommt (nicht im Artikel; erschlossen: 3).</translation>
    </message>
    <message>
        <source>w_max</source>
        <translation>w_max</translation>
    </message>
    <message>
        <source>Size of the wrong-sample bank that triggers generating new hypotheses from it (paper: 10).</source>
        <translation>Größe der Fehlerbank, ab der aus ihr neue Hypothesen erzeugt werden (Artikel: 10).</translation>
    </message>
    <message>
        <source>N_refine</source>
        <translation>N_refine</translation>
    </message>
    <message>
        <source>Refinement rounds; odd rounds refine from data, even rounds from the literature (paper: 6).</source>
        <translation>Verfeinerungsrunden; ungerade Runden verfeinern mit Daten, gerade mit der Literatur (Artikel: 6).</translation>
    </message>
    <message>
        <source>H_max</source>
        <translation>H_max</translation>
    </message>
    <message>
        <source>Largest hypothesis bank kept during training (paper: 20).</source>
        <translation>Größte während des Trainings gehaltene Hypothesenbank (Artikel: 20).</translation>
    </message>
    <message>
        <source>H_ev</source>
        <translation>H_ev</translation>
    </message>
    <message>
        <source>Hypotheses (the best by train correlation) used to score the test items (paper: 5).</source>
        <translation>Hypothesen (die besten nach Trainingskorrelation), die die Testelemente bewerten (Artikel: 5).</translation>
    </message>
    <message>
        <source>Min. parsed</source>
        <translation>Min. gelesen</translation>
    </message>
    <message>
        <source>Training items a hypothesis must have a parsed score on to be selected, so that a correlation on two points cannot win (not in the paper). 0: automatic, the larger of 5 and half the training items.</source>
        <translation>Trainingselemente, auf denen eine Hypothese eine lesbare Punktzahl haben muss, um ausgewählt zu werden, damit eine Korrelation auf zwei Punkten nicht gewinnen kann (nicht im Artikel). 0: automatisch, das Größere von 5 und der Hälfte der Trainingselemente.</translation>
    </message>
    <message>
        <source>Min. hypotheses</source>
        <translation>Min. Hypothesen</translation>
    </message>
    <message>
        <source>Hypotheses whose answer on an item must give a score for the item to be scored (the mean of those); fewer leaves the item unscored (not in the paper). 0: automatic, a majority of the hypotheses used (3 of 5).</source>
        <translation>Hypothesen, deren Antwort auf ein Element eine Bewertung ergeben muss, damit das Element bewertet wird (deren Mittelwert); weniger lassen es unbewertet (nicht im Artikel). 0: automatisch, eine Mehrheit der verwendeten Hypothesen (3 von 5).</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>Startwert</translation>
    </message>
    <message>
        <source>Seed of the random draws (initial samples, update order); the same seed repeats the run.</source>
        <translation>Startwert der Zufallsziehungen (Anfangsbeispiele, Aktualisierungsreihenfolge); derselbe Startwert wiederholt den Lauf.</translation>
    </message>
    <message>
        <source>Sampling temperature of every call (upstream code: 1e-5).</source>
        <translation>Sampling-Temperatur jedes Aufrufs (Originalcode: 1e-5).</translation>
    </message>
    <message>
        <source>Largest answer of one call (upstream code: 4000).</source>
        <translation>Längste Antwort eines Aufrufs (Originalcode: 4000).</translation>
    </message>
    <message>
        <source>Merge</source>
        <translation>Zusammenführen</translation>
    </message>
    <message>
        <source>How new hypotheses join the bank: top keeps the H_max best of the top-k and the new ones (paper); all merges the whole bank with the new ones.</source>
        <translation>Wie neue Hypothesen in die Bank kommen: top behält die H_max besten aus den Top-k und den neuen (Artikel); all führt die ganze Bank mit den neuen zusammen.</translation>
    </message>
    <message>
        <source>Literature</source>
        <translation>Literatur</translation>
    </message>
    <message>
        <source>Literature folder for the literature-based hypotheses and refinements: papers as text (*.txt, *.md), which the generator summarises first, and summaries you wrote or edited (NAME.summary.txt, NAME.summary.md), used as written; empty: data only.</source>
        <translation>Literaturordner für literaturbasierte Hypothesen und Verfeinerungen: Artikel als Text (*.txt, *.md), die der Generator zuerst zusammenfasst, und Zusammenfassungen, die Sie geschrieben oder bearbeitet haben (NAME.summary.txt, NAME.summary.md), unverändert übernommen; leer: nur Daten.</translation>
    </message>
    <message>
        <source>HPSS: searches the prompting strategies (scale, examples, criteria, reference, chain of thought, AutoCoT, metrics, order) for the judge prompt that agrees best with the human scores on the train split (Wen et al., 2025).</source>
        <translation>HPSS: durchsucht die Prompt-Strategien (Skala, Beispiele, Kriterien, Referenz, Gedankenkette, AutoCoT, Metriken, Reihenfolge) nach dem Bewerter-Prompt, der auf dem Trainingsteil am besten mit den menschlichen Bewertungen übereinstimmt (Wen et al., 2025).</translation>
    </message>
    <message>
        <source>Search</source>
        <translation>Suche</translation>
    </message>
    <message>
        <source>HPSS, or a baseline in the same space: greedy, stepwise greedy, random one-factor mutation (the paper's “w/o all”) or plain random search.</source>
        <translation>HPSS oder ein Vergleichsverfahren im selben Raum: gierig, schrittweise gierig, zufällige Ein-Faktor-Mutation („w/o all“ des Artikels) oder reine Zufallssuche.</translation>
    </message>
    <message>
        <source>Strategies evaluated</source>
        <translation>Bewertete Strategien</translation>
    </message>
    <message>
        <source>Strategies scored on the whole validation split, the 21 initial ones included (paper: 71).</source>
        <translation>Strategien, die auf dem ganzen Validierungsteil bewertet werden, die 21 anfänglichen eingeschlossen (Artikel: 71).</translation>
    </message>
    <message>
        <source>Population k</source>
        <translation>Population k</translation>
    </message>
    <message>
        <source>Best strategies kept per round (paper: k = 5).</source>
        <translation>Je Runde behaltene beste Strategien (Artikel: k = 5).</translation>
    </message>
    <message>
        <source>Mutations g</source>
        <translation>Mutationen g</translation>
    </message>
    <message>
        <source>Mutations per population member and round (paper: g = 2).</source>
        <translation>Mutationen je Populationsmitglied und Runde (Artikel: g = 2).</translation>
    </message>
    <message>
        <source>Exploitation ρ</source>
        <translation>Ausnutzung ρ</translation>
    </message>
    <message>
        <source>Probability that a step jumps to the unexplored strategy with the largest summed advantage (paper: 0.2).</source>
        <translation>Wahrscheinlichkeit, dass ein Schritt zur unerforschten Strategie mit dem größten summierten Vorteil springt (Artikel: 0,2).</translation>
    </message>
    <message>
        <source>Softmax temperature τ</source>
        <translation>Softmax-Temperatur τ</translation>
    </message>
    <message>
        <source>Temperature of the softmax over the neighbours' advantage gains, Spearman × 100 (paper: 5). Scoring itself is greedy.</source>
        <translation>Temperatur des Softmax über die Vorteilsgewinne der Nachbarn, Spearman × 100 (Artikel: 5). Das Bewerten selbst ist gierig.</translation>
    </message>
    <message>
        <source>Exploration weight λ</source>
        <translation>Erkundungsgewicht λ</translation>
    </message>
    <message>
        <source>Weight of the UCB bonus for rarely seen values (paper: 4).</source>
        <translation>Gewicht des UCB-Bonus für selten gesehene Werte (Artikel: 4).</translation>
    </message>
    <message>
        <source>Seed of the search's random choices and of the in-context example draw.</source>
        <translation>Startwert der Zufallsentscheidungen der Suche und der Auswahl der Beispiele im Prompt.</translation>
    </message>
    <message>
        <source>Task wording</source>
        <translation>Aufgabenformulierung</translation>
    </message>
    <message>
        <source>The paper's wording of the prompt for this kind of task: summaries, dialogue responses, data-to-text sentences or stories.</source>
        <translation>Die Formulierung des Prompts aus dem Artikel für diese Art von Aufgabe: Zusammenfassungen, Dialogantworten, Daten-zu-Text-Sätze oder Geschichten.</translation>
    </message>
    <message>
        <source>Largest answer of a scoring call (the explanation and the [[rating]]; upstream: 4096).</source>
        <translation>Längste Antwort eines Bewertungsaufrufs (die Erklärung und die [[rating]]; Original: 4096).</translation>
    </message>
</context>
<context>
    <name>rubric::MethodParamsForm</name>
    <message>
        <source>Choose the folder</source>
        <translation>Ordner wählen</translation>
    </message>
</context>
<context>
    <name>rubric::ProfileEditor</name>
    <message>
        <source>Provider profiles</source>
        <translation>Anbieterprofile</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>OpenAI-kompatibel</translation>
    </message>
    <message>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <source>No key</source>
        <translation>Kein Schlüssel</translation>
    </message>
    <message>
        <source>Environment variable</source>
        <translation>Umgebungsvariable</translation>
    </message>
    <message>
        <source>System keychain</source>
        <translation>Systemschlüsselbund</translation>
    </message>
    <message>
        <source>The key is never stored in a profile or a project: name the environment variable that holds it, or keep it in the system keychain under the profile's name.</source>
        <translation>Der Schlüssel wird nie in einem Profil oder Projekt gespeichert: nennen Sie die Umgebungsvariable, die ihn enthält, oder legen Sie ihn unter dem Profilnamen im Systemschlüsselbund ab.</translation>
    </message>
    <message>
        <source>Price of one million input (prompt) tokens, for estimates and the ledger.</source>
        <translation>Preis von einer Million Eingabe-Tokens (Prompt), für Schätzungen und das Kostenbuch.</translation>
    </message>
    <message>
        <source>Price of one million output (answer) tokens.</source>
        <translation>Preis von einer Million Ausgabe-Tokens (Antwort).</translation>
    </message>
    <message>
        <source> / 1M tokens</source>
        <translation> / 1 Mio. Tokens</translation>
    </message>
    <message>
        <source>Requests in flight to this endpoint at the same time.</source>
        <translation>Gleichzeitig laufende Anfragen an diesen Endpunkt.</translation>
    </message>
    <message>
        <source>Requests per minute allowed by the provider (0 = unlimited).</source>
        <translation>Vom Anbieter erlaubte Anfragen pro Minute (0 = unbegrenzt).</translation>
    </message>
    <message>
        <source>Tokens per minute allowed by the provider (0 = unlimited).</source>
        <translation>Vom Anbieter erlaubte Tokens pro Minute (0 = unbegrenzt).</translation>
    </message>
    <message>
        <source>unlimited</source>
        <translation>unbegrenzt</translation>
    </message>
    <message>
        <source>How long one request may take before it is retried.</source>
        <translation>Wie lange eine Anfrage dauern darf, bevor sie wiederholt wird.</translation>
    </message>
    <message>
        <source> s</source>
        <translation> s</translation>
    </message>
    <message>
        <source>Retries of a failed request (429, 5xx, network errors) with backoff.</source>
        <translation>Wiederholungen einer fehlgeschlagenen Anfrage (429, 5xx, Netzwerkfehler) mit Wartezeit.</translation>
    </message>
    <message>
        <source>&amp;Name:</source>
        <translation>&amp;Name:</translation>
    </message>
    <message>
        <source>&amp;Provider:</source>
        <translation>&amp;Anbieter:</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>&amp;Basis-URL:</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>&amp;Modell:</translation>
    </message>
    <message>
        <source>&amp;Key from:</source>
        <translation>&amp;Schlüssel aus:</translation>
    </message>
    <message>
        <source>&amp;Variable:</source>
        <translation>&amp;Variable:</translation>
    </message>
    <message>
        <source>Price &amp;in:</source>
        <translation>Preis &amp;Eingabe:</translation>
    </message>
    <message>
        <source>Price &amp;out:</source>
        <translation>Preis A&amp;usgabe:</translation>
    </message>
    <message>
        <source>&amp;Concurrency:</source>
        <translation>&amp;Parallelität:</translation>
    </message>
    <message>
        <source>Requests/min:</source>
        <translation>Anfragen/min:</translation>
    </message>
    <message>
        <source>Tokens/min:</source>
        <translation>Tokens/min:</translation>
    </message>
    <message>
        <source>Timeout:</source>
        <translation>Zeitlimit:</translation>
    </message>
    <message>
        <source>Retries:</source>
        <translation>Wiederholungen:</translation>
    </message>
    <message>
        <source>Ne&amp;w</source>
        <translation>Ne&amp;u</translation>
    </message>
    <message>
        <source>&amp;Save</source>
        <translation>&amp;Speichern</translation>
    </message>
    <message>
        <source>&amp;Delete</source>
        <translation>&amp;Löschen</translation>
    </message>
    <message>
        <source>&amp;Test connection</source>
        <translation>Verbindung &amp;testen</translation>
    </message>
    <message>
        <source>Sends one short rating prompt with the profile as edited (not saved yet) and shows the answer, the latency and whether logprobs came back.</source>
        <translation>Sendet einen kurzen Bewertungsprompt mit dem Profil wie bearbeitet (noch nicht gespeichert) und zeigt die Antwort, die Latenz und ob Logprobs zurückkamen.</translation>
    </message>
    <message>
        <source>The profile needs a model name.</source>
        <translation>Das Profil braucht einen Modellnamen.</translation>
    </message>
    <message>
        <source>The profile was not saved: %1</source>
        <translation>Das Profil wurde nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Profile '%1' saved.</source>
        <translation>Profil '%1' gespeichert.</translation>
    </message>
    <message>
        <source>Profile '%1' deleted.</source>
        <translation>Profil '%1' gelöscht.</translation>
    </message>
    <message>
        <source>Enter a base URL and a model first.</source>
        <translation>Geben Sie zuerst eine Basis-URL und ein Modell ein.</translation>
    </message>
    <message>
        <source>Testing %1 …</source>
        <translation>Teste %1 …</translation>
    </message>
    <message>
        <source>Failed: HTTP %1 — %2</source>
        <translation>Fehlgeschlagen: HTTP %1 — %2</translation>
    </message>
    <message>
        <source>Failed: %1</source>
        <translation>Fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>OK · HTTP %1 · %2 ms · answer “%3” · %4 tokens in, %5 out · logprobs: %6</source>
        <translation>OK · HTTP %1 · %2 ms · Antwort „%3“ · %4 Tokens ein, %5 aus · Logprobs: %6</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no</source>
        <translation>nein</translation>
    </message>
    <message numerus="yes">
        <source> · %n retry(s)</source>
        <translation><numerusform> · %n Wiederholung</numerusform><numerusform> · %n Wiederholungen</numerusform></translation>
    </message>
    <message>
        <source> · n: honoured</source>
        <translation> · n: beachtet</translation>
    </message>
    <message>
        <source> · n: ignored (%1 of %2 choices; G-Eval asks its samples one at a time)</source>
        <translation> · n: ignoriert (%1 von %2 Antworten; G-Eval fragt seine Stichproben einzeln an)</translation>
    </message>
    <message>
        <source>Extra HTTP headers, separated by ';'. A header's value is never stored: give it as NAME=env:VARIABLE and set the environment variable to the value.</source>
        <translation>Zusätzliche HTTP-Header, durch ';' getrennt. Der Wert eines Headers wird nie gespeichert: geben Sie ihn als NAME=env:VARIABLE an und setzen Sie die Umgebungsvariable auf den Wert.</translation>
    </message>
    <message>
        <source>&amp;Headers:</source>
        <translation>&amp;Header:</translation>
    </message>
</context>
<context>
    <name>rubric::RubricDiffDialog</name>
    <message>
        <source>Rubric of %1: version %2 → %3</source>
        <translation>Rubrik von %1: Version %2 → %3</translation>
    </message>
    <message>
        <source>The two versions have the same criteria.</source>
        <translation>Die beiden Versionen haben dieselben Kriterien.</translation>
    </message>
    <message numerus="yes">
        <source>%n change(s) from version %1 to version %2.</source>
        <translation><numerusform>%n Änderung von Version %1 zu Version %2.</numerusform><numerusform>%n Änderungen von Version %1 zu Version %2.</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::RubricPane</name>
    <message>
        <source>The judge whose rubric is shown (judges that have a saved rubric)</source>
        <translation>Der Bewerter, dessen Rubrik gezeigt wird (Bewerter mit gespeicherter Rubrik)</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>Version</translation>
    </message>
    <message>
        <source>Saved</source>
        <translation>Gespeichert</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>Notiz</translation>
    </message>
    <message>
        <source>Saved versions of the rubric; select one to read it (the latest is edited), select two (Ctrl+click or Shift+arrow) to compare them</source>
        <translation>Gespeicherte Versionen der Rubrik; eine auswählen, um sie zu lesen (die neueste wird bearbeitet), zwei auswählen (Strg+Klick oder Umschalt+Pfeil), um sie zu vergleichen</translation>
    </message>
    <message>
        <source>F2 edits the text, Space enables or disables, Del deletes, Alt+Up/Down reorders</source>
        <translation>F2 bearbeitet den Text, Leertaste schaltet ein oder aus, Entf löscht, Alt+Auf/Ab ordnet um</translation>
    </message>
    <message>
        <source>Edit from this version</source>
        <translation>Von dieser Version aus bearbeiten</translation>
    </message>
    <message>
        <source>Take this older version as the base of the next edit (saved as a new version)</source>
        <translation>Diese ältere Version als Grundlage der nächsten Bearbeitung nehmen (als neue Version gespeichert)</translation>
    </message>
    <message>
        <source>The selected criterion's full text</source>
        <translation>Der vollständige Text des gewählten Kriteriums</translation>
    </message>
    <message>
        <source>Apply text</source>
        <translation>Text übernehmen</translation>
    </message>
    <message>
        <source>Replace the criterion's text with the edited one (Ctrl+Return); undoable</source>
        <translation>Den Text des Kriteriums durch den bearbeiteten ersetzen (Strg+Eingabe); rückgängig machbar</translation>
    </message>
    <message>
        <source>Undo</source>
        <translation>Rückgängig</translation>
    </message>
    <message>
        <source>Undo the last edit (Ctrl+Z)</source>
        <translation>Die letzte Bearbeitung rückgängig machen (Strg+Z)</translation>
    </message>
    <message>
        <source>Redo</source>
        <translation>Wiederholen</translation>
    </message>
    <message>
        <source>Redo the undone edit (Ctrl+Shift+Z or Ctrl+Y)</source>
        <translation>Die rückgängig gemachte Bearbeitung wiederholen (Strg+Umschalt+Z oder Strg+Y)</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add a criterion after the selected one (Ins)</source>
        <translation>Ein Kriterium nach dem gewählten hinzufügen (Einfg)</translation>
    </message>
    <message>
        <source>Add child</source>
        <translation>Unterkriterium hinzufügen</translation>
    </message>
    <message>
        <source>Add a criterion under the selected one (Ctrl+Ins)</source>
        <translation>Ein Kriterium unter dem gewählten hinzufügen (Strg+Einfg)</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>Delete the selected criterion and what is under it (Del)</source>
        <translation>Das gewählte Kriterium und alles darunter löschen (Entf)</translation>
    </message>
    <message>
        <source>Move up</source>
        <translation>Nach oben</translation>
    </message>
    <message>
        <source>Move the selected criterion up (Alt+Up)</source>
        <translation>Das gewählte Kriterium nach oben schieben (Alt+Auf)</translation>
    </message>
    <message>
        <source>Move down</source>
        <translation>Nach unten</translation>
    </message>
    <message>
        <source>Move the selected criterion down (Alt+Down)</source>
        <translation>Das gewählte Kriterium nach unten schieben (Alt+Ab)</translation>
    </message>
    <message>
        <source>Enable / disable</source>
        <translation>Ein / aus</translation>
    </message>
    <message>
        <source>Enable or disable the selected criterion; disabled ones are not scored (Space)</source>
        <translation>Das gewählte Kriterium ein- oder ausschalten; ausgeschaltete werden nicht bewertet (Leertaste)</translation>
    </message>
    <message>
        <source>Save as new version…</source>
        <translation>Als neue Version speichern…</translation>
    </message>
    <message>
        <source>Save the edited rubric as a new version with a short note (Ctrl+S)</source>
        <translation>Die bearbeitete Rubrik mit einer kurzen Notiz als neue Version speichern (Strg+S)</translation>
    </message>
    <message>
        <source>Re-score</source>
        <translation>Neu bewerten</translation>
    </message>
    <message>
        <source>Run the judge again with its latest version; the cache answers what the edit did not change (Ctrl+R)</source>
        <translation>Den Bewerter mit der neuesten Version erneut ausführen; was die Bearbeitung nicht geändert hat, beantwortet der Cache (Strg+R)</translation>
    </message>
    <message>
        <source>Export rubric…</source>
        <translation>Rubrik exportieren…</translation>
    </message>
    <message>
        <source>Export the shown saved version as Markdown or JSON (Ctrl+Shift+E)</source>
        <translation>Die gezeigte gespeicherte Version als Markdown oder JSON exportieren (Strg+Umschalt+E)</translation>
    </message>
    <message>
        <source>Compare versions</source>
        <translation>Versionen vergleichen</translation>
    </message>
    <message>
        <source>Compare the two versions selected in the version list (Ctrl+D)</source>
        <translation>Die beiden in der Versionsliste gewählten Versionen vergleichen (Strg+D)</translation>
    </message>
    <message>
        <source>&amp;Judge:</source>
        <translation>&amp;Bewerter:</translation>
    </message>
    <message>
        <source>&amp;Text</source>
        <translation>&amp;Text</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>v%1</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Unsaved rubric changes</source>
        <translation>Ungespeicherte Rubrikänderungen</translation>
    </message>
    <message>
        <source>The rubric of %1 has unsaved changes. Discard them?</source>
        <translation>Die Rubrik von %1 hat ungespeicherte Änderungen. Verwerfen?</translation>
    </message>
    <message>
        <source>Save the edit as a new version first; the judge is re-scored with its latest version</source>
        <translation>Speichern Sie die Bearbeitung zuerst als neue Version; neu bewertet wird mit der neuesten Version</translation>
    </message>
    <message>
        <source>No judge with a rubric yet: run HypoEval or G-Eval in the Judge &amp; run pane.</source>
        <translation>Noch kein Bewerter mit Rubrik: starten Sie HypoEval oder G-Eval im Bereich „Bewerter &amp; Lauf“.</translation>
    </message>
    <message>
        <source>Version %1 of %2 (read-only)</source>
        <translation>Version %1 von %2 (schreibgeschützt)</translation>
    </message>
    <message>
        <source>Editing from version %1; saving creates version %2</source>
        <translation>Bearbeitung ab Version %1; Speichern erzeugt Version %2</translation>
    </message>
    <message>
        <source>Version %1 of %2</source>
        <translation>Version %1 von %2</translation>
    </message>
    <message numerus="yes">
        <source> — unsaved changes (%n edit(s))</source>
        <translation><numerusform> — ungespeicherte Änderungen (%n Bearbeitung)</numerusform><numerusform> — ungespeicherte Änderungen (%n Bearbeitungen)</numerusform></translation>
    </message>
    <message>
        <source>New criterion: describe what the judge should check</source>
        <translation>Neues Kriterium: beschreiben Sie, was der Bewerter prüfen soll</translation>
    </message>
    <message>
        <source>Save rubric version</source>
        <translation>Rubrikversion speichern</translation>
    </message>
    <message>
        <source>A short note on what changed (saved as version %1):</source>
        <translation>Eine kurze Notiz zur Änderung (gespeichert als Version %1):</translation>
    </message>
    <message>
        <source>Edited in the studio</source>
        <translation>Im Studio bearbeitet</translation>
    </message>
    <message>
        <source>The rubric could not be saved: %1</source>
        <translation>Die Rubrik konnte nicht gespeichert werden: %1</translation>
    </message>
    <message>
        <source>no rubric is shown</source>
        <translation>keine Rubrik gezeigt</translation>
    </message>
    <message>
        <source>version %1 is read-only; choose "Edit from this version" first</source>
        <translation>Version %1 ist schreibgeschützt; wählen Sie zuerst „Von dieser Version aus bearbeiten“</translation>
    </message>
    <message>
        <source>Saved version %1 of %2's rubric. Re-score to measure its alignment.</source>
        <translation>Version %1 der Rubrik von %2 gespeichert. Bewerten Sie neu, um ihre Übereinstimmung zu messen.</translation>
    </message>
    <message>
        <source>Alignment (train)</source>
        <translation>Übereinstimmung (Training)</translation>
    </message>
    <message>
        <source>Alignment (test)</source>
        <translation>Übereinstimmung (Test)</translation>
    </message>
    <message>
        <source>Show the test-split alignment</source>
        <translation>Übereinstimmung auf dem Testteil zeigen</translation>
    </message>
    <message>
        <source>The versions' alignment on the test split. Choosing between versions by it tunes the rubric on the test labels: compare versions on the train figure.</source>
        <translation>Die Übereinstimmung der Versionen auf dem Testteil. Wer danach zwischen Versionen wählt, stimmt die Rubrik auf die Testbewertungen ab: vergleichen Sie Versionen mit dem Trainingswert.</translation>
    </message>
    <message>
        <source>Pearson with the human scores on the train split; the note says on how many items</source>
        <translation>Pearson mit den menschlichen Bewertungen auf dem Trainingsteil; die Notiz sagt, auf wie vielen Elementen</translation>
    </message>
    <message>
        <source>Not measured on the train split yet: re-score the judge to measure it (a re-score also scores the annotated train items)</source>
        <translation>Auf dem Trainingsteil noch nicht gemessen: bewerten Sie neu, um sie zu messen (eine Neubewertung bewertet auch die annotierten Trainingselemente)</translation>
    </message>
    <message>
        <source>Not measured on the test split</source>
        <translation>Auf dem Testteil nicht gemessen</translation>
    </message>
</context>
<context>
    <name>rubric::RubricTreeModel</name>
    <message>
        <source>initial</source>
        <translation>anfänglich</translation>
    </message>
    <message>
        <source>wrong-bank refine %1</source>
        <translation>Fehlerbank-Verfeinerung %1</translation>
    </message>
    <message>
        <source>wrong-bank</source>
        <translation>Fehlerbank</translation>
    </message>
    <message>
        <source>literature</source>
        <translation>Literatur</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>auto-CoT step</source>
        <translation>Auto-CoT-Schritt</translation>
    </message>
    <message>
        <source>aspect</source>
        <translation>Aspekt</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>bearbeitet</translation>
    </message>
    <message>
        <source>edited (%1)</source>
        <translation>bearbeitet (%1)</translation>
    </message>
    <message>
        <source>%1

Definition: %2</source>
        <translation>%1

Definition: %2</translation>
    </message>
    <message>
        <source>Scored by the judge (Space to disable)</source>
        <translation>Vom Bewerter bewertet (Leertaste schaltet aus)</translation>
    </message>
    <message>
        <source>Not scored (Space to enable)</source>
        <translation>Nicht bewertet (Leertaste schaltet ein)</translation>
    </message>
    <message>
        <source>Edited by %1; the method's text was:
%2</source>
        <translation>Bearbeitet von %1; der Text der Methode war:
%2</translation>
    </message>
    <message>
        <source>HypoEval's reward (accuracy and exploration bonus) when the bank was last updated</source>
        <translation>Belohnung von HypoEval (Genauigkeit und Erkundungsbonus) bei der letzten Aktualisierung der Bank</translation>
    </message>
    <message>
        <source>Pearson of this criterion's scores with the human scores on the train split</source>
        <translation>Pearson der Punktzahlen dieses Kriteriums mit den menschlichen Bewertungen auf dem Trainingsteil</translation>
    </message>
    <message>
        <source>Rank among the selected hypotheses (or the criterion's weight)</source>
        <translation>Rang unter den ausgewählten Hypothesen (oder das Gewicht des Kriteriums)</translation>
    </message>
    <message>
        <source>Criterion</source>
        <translation>Kriterium</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>On</source>
        <translation>Ein</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>Herkunft</translation>
    </message>
    <message>
        <source>Reward</source>
        <translation>Belohnung</translation>
    </message>
    <message>
        <source>Train r</source>
        <translation>Training r</translation>
    </message>
    <message>
        <source>Rank</source>
        <translation>Rang</translation>
    </message>
</context>
<context>
    <name>rubric::RunController</name>
    <message>
        <source>no project is open</source>
        <translation>kein Projekt geöffnet</translation>
    </message>
    <message>
        <source>cancelled</source>
        <translation>abgebrochen</translation>
    </message>
</context>
<context>
    <name>rubric::RunPane</name>
    <message>
        <source>Method</source>
        <translation>Methode</translation>
    </message>
    <message>
        <source>The run's name in the project. Starting a name that failed or was cancelled resumes it.</source>
        <translation>Der Name des Laufs im Projekt. Ein fehlgeschlagener oder abgebrochener Name wird beim Start fortgesetzt.</translation>
    </message>
    <message>
        <source>Test split</source>
        <translation>Testteil</translation>
    </message>
    <message>
        <source>Train split</source>
        <translation>Trainingsteil</translation>
    </message>
    <message>
        <source>All items</source>
        <translation>Alle Elemente</translation>
    </message>
    <message>
        <source>The model that scores the items.</source>
        <translation>Das Modell, das die Elemente bewertet.</translation>
    </message>
    <message>
        <source>The model that writes G-Eval's steps or proposes HypoEval's hypotheses.</source>
        <translation>Das Modell, das die Schritte von G-Eval schreibt oder die Hypothesen von HypoEval vorschlägt.</translation>
    </message>
    <message>
        <source>The model that refines HypoEval's hypotheses.</source>
        <translation>Das Modell, das die Hypothesen von HypoEval verfeinert.</translation>
    </message>
    <message>
        <source>M&amp;ethod:</source>
        <translation>M&amp;ethode:</translation>
    </message>
    <message>
        <source>&amp;Aspect:</source>
        <translation>&amp;Aspekt:</translation>
    </message>
    <message>
        <source>&amp;Judge name:</source>
        <translation>&amp;Bewertername:</translation>
    </message>
    <message>
        <source>It&amp;ems:</source>
        <translation>El&amp;emente:</translation>
    </message>
    <message>
        <source>E&amp;valuator:</source>
        <translation>Be&amp;werter:</translation>
    </message>
    <message>
        <source>&amp;Generator:</source>
        <translation>&amp;Generator:</translation>
    </message>
    <message>
        <source>&amp;Refiner:</source>
        <translation>&amp;Verfeinerer:</translation>
    </message>
    <message>
        <source>&lt;b&gt;Parameters&lt;/b&gt; (paper defaults; hover for what each does)</source>
        <translation>&lt;b&gt;Parameter&lt;/b&gt; (Vorgaben aus dem Artikel; Mauszeiger darüber erklärt jeden)</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>Lauf</translation>
    </message>
    <message>
        <source>E&amp;stimate</source>
        <translation>&amp;Schätzen</translation>
    </message>
    <message>
        <source>Calls, cached answers, tokens and cost the run needs now; nothing is sent.</source>
        <translation>Aufrufe, Antworten aus dem Cache, Tokens und Kosten, die der Lauf jetzt braucht; nichts wird gesendet.</translation>
    </message>
    <message>
        <source>St&amp;art</source>
        <translation>St&amp;arten</translation>
    </message>
    <message>
        <source>&amp;Cancel run</source>
        <translation>Lauf a&amp;bbrechen</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>&amp;Fortsetzen</translation>
    </message>
    <message>
        <source>Continue the selected failed or cancelled run with its stored configuration; answers already received are not asked again.</source>
        <translation>Den gewählten fehlgeschlagenen oder abgebrochenen Lauf mit seiner gespeicherten Konfiguration fortsetzen; erhaltene Antworten werden nicht erneut erfragt.</translation>
    </message>
    <message>
        <source>No estimate yet.</source>
        <translation>Noch keine Schätzung.</translation>
    </message>
    <message>
        <source>Judge</source>
        <translation>Bewerter</translation>
    </message>
    <message>
        <source>Aspect</source>
        <translation>Aspekt</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Items</source>
        <translation>Elemente</translation>
    </message>
    <message>
        <source>&lt;b&gt;Runs of this project&lt;/b&gt;</source>
        <translation>&lt;b&gt;Läufe dieses Projekts&lt;/b&gt;</translation>
    </message>
    <message>
        <source>Select a failed or cancelled run to resume it.</source>
        <translation>Wählen Sie einen fehlgeschlagenen oder abgebrochenen Lauf, um ihn fortzusetzen.</translation>
    </message>
    <message>
        <source>(same as evaluator)</source>
        <translation>(wie Bewerter)</translation>
    </message>
    <message>
        <source>(same as generator)</source>
        <translation>(wie Generator)</translation>
    </message>
    <message>
        <source>Give the run a judge name.</source>
        <translation>Geben Sie dem Lauf einen Bewerternamen.</translation>
    </message>
    <message>
        <source>The project has no aspect to judge.</source>
        <translation>Das Projekt hat keinen Aspekt zum Bewerten.</translation>
    </message>
    <message>
        <source>Choose an evaluator profile (save one on the left first).</source>
        <translation>Wählen Sie ein Bewerterprofil (speichern Sie zuerst links eines).</translation>
    </message>
    <message>
        <source>The generator profile '%1' no longer exists.</source>
        <translation>Das Generatorprofil '%1' existiert nicht mehr.</translation>
    </message>
    <message>
        <source>The refiner profile '%1' no longer exists.</source>
        <translation>Das Verfeinererprofil '%1' existiert nicht mehr.</translation>
    </message>
    <message>
        <source>Estimating …</source>
        <translation>Schätze …</translation>
    </message>
    <message>
        <source>A run is going; cancel it or wait for it to finish.</source>
        <translation>Ein Lauf ist im Gange; brechen Sie ihn ab oder warten Sie, bis er endet.</translation>
    </message>
    <message>
        <source>No project is open.</source>
        <translation>Kein Projekt geöffnet.</translation>
    </message>
    <message>
        <source>Cannot resume '%1': %2</source>
        <translation>'%1' kann nicht fortgesetzt werden: %2</translation>
    </message>
    <message>
        <source>Cannot re-score '%1': %2</source>
        <translation>'%1' kann nicht neu bewertet werden: %2</translation>
    </message>
    <message>
        <source>Re-scoring '%1': answers already in the cache are not asked again.</source>
        <translation>'%1' wird neu bewertet: Antworten im Cache werden nicht erneut erfragt.</translation>
    </message>
    <message>
        <source>%1 calls</source>
        <translation>%1 Aufrufe</translation>
    </message>
    <message>
        <source>%1–%2 calls (depends on the answers)</source>
        <translation>%1–%2 Aufrufe (hängt von den Antworten ab)</translation>
    </message>
    <message>
        <source>Estimate: %1 · %2 answered from the cache · ~%3 tokens in, ~%4 out · cost %5</source>
        <translation>Schätzung: %1 · %2 aus dem Cache · ~%3 Tokens ein, ~%4 aus · Kosten %5</translation>
    </message>
    <message>
        <source>No estimate.</source>
        <translation>Keine Schätzung.</translation>
    </message>
    <message>
        <source>Estimate failed: %1</source>
        <translation>Schätzung fehlgeschlagen: %1</translation>
    </message>
    <message>
        <source>Starting %1 …</source>
        <translation>Starte %1 …</translation>
    </message>
    <message>
        <source>Run '%1' done: %2 items scored, %3 without a score; %4 calls sent, %5 from the cache.</source>
        <translation>Lauf '%1' fertig: %2 Elemente bewertet, %3 ohne Punktzahl; %4 Aufrufe gesendet, %5 aus dem Cache.</translation>
    </message>
    <message>
        <source>Run '%1' stopped: %2. It is saved; select it and press Resume to continue.</source>
        <translation>Lauf '%1' angehalten: %2. Er ist gespeichert; wählen Sie ihn und drücken Sie Fortsetzen.</translation>
    </message>
    <message>
        <source>%1 / at most %2 calls</source>
        <translation>%1 / höchstens %2 Aufrufe</translation>
    </message>
    <message>
        <source>%1 / %2 calls</source>
        <translation>%1 / %2 Aufrufe</translation>
    </message>
    <message>
        <source>Calls by phase: %1</source>
        <translation>Aufrufe je Phase: %1</translation>
    </message>
    <message>
        <source>%1 of at most %2 calls sent</source>
        <translation>%1 von höchstens %2 Aufrufen gesendet</translation>
    </message>
    <message>
        <source>%1 calls sent</source>
        <translation>%1 Aufrufe gesendet</translation>
    </message>
    <message>
        <source>%1 · %2 / %3 answered · %4 · %5 cache hits · %6 tokens · cost %7 · ETA %8</source>
        <translation>%1 · %2 / %3 beantwortet · %4 · %5 Cache-Treffer · %6 Tokens · Kosten %7 · fertig in %8</translation>
    </message>
    <message>
        <source>Scoring: %1 (%2).</source>
        <translation>Bewertung: %1 (%2).</translation>
    </message>
    <message>
        <source>Another configuration</source>
        <translation>Andere Konfiguration</translation>
    </message>
    <message>
        <source>Judge '%1' was run with another configuration. One judge name is one configuration; its scores would mix two judges.</source>
        <translation>Der Bewerter '%1' lief mit einer anderen Konfiguration. Ein Bewertername ist eine Konfiguration; seine Punktzahlen würden zwei Bewerter mischen.</translation>
    </message>
    <message>
        <source>Run under a new name…</source>
        <translation>Unter neuem Namen ausführen…</translation>
    </message>
    <message>
        <source>Replace</source>
        <translation>Ersetzen</translation>
    </message>
    <message>
        <source>Delete the judge's scores and rubric and run afresh under this name (answers already paid for stay in the cache).</source>
        <translation>Punktzahlen und Rubrik des Bewerters löschen und unter diesem Namen neu ausführen (bereits bezahlte Antworten bleiben im Cache).</translation>
    </message>
    <message>
        <source>Run under a new name</source>
        <translation>Unter neuem Namen ausführen</translation>
    </message>
    <message>
        <source>New judge name:</source>
        <translation>Neuer Bewertername:</translation>
    </message>
    <message>
        <source>Ask refused items again</source>
        <translation>Abgelehnte Elemente erneut anfragen</translation>
    </message>
    <message>
        <source>Items the endpoint refused in an earlier attempt (e.g. too long for its context) are skipped when a judge runs again. Tick this to ask them again, e.g. after choosing another model; Resume then also takes a finished run.</source>
        <translation>Elemente, die der Endpunkt in einem früheren Versuch abgelehnt hat (z. B. zu lang für seinen Kontext), werden übersprungen, wenn ein Bewerter erneut läuft. Hier ankreuzen, um sie erneut anzufragen, z. B. nach der Wahl eines anderen Modells; Fortsetzen nimmt dann auch einen abgeschlossenen Lauf.</translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) refused by the endpoint (see Issues; tick 'Ask refused items again' and press Resume to ask them again).</source>
        <translation><numerusform>%n Element vom Endpunkt abgelehnt (siehe Probleme; 'Abgelehnte Elemente erneut anfragen' ankreuzen und Fortsetzen drücken, um es erneut anzufragen).</numerusform><numerusform>%n Elemente vom Endpunkt abgelehnt (siehe Probleme; 'Abgelehnte Elemente erneut anfragen' ankreuzen und Fortsetzen drücken, um sie erneut anzufragen).</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::RunWorker</name>
    <message>
        <source>a run is already going</source>
        <translation>ein Lauf ist bereits im Gange</translation>
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
    <message>
        <source>whole sources</source>
        <translation>ganze Quellen</translation>
    </message>
    <message>
        <source>Group-disjoint split: each suggestion brings its whole group (source) to the train split, so that no source of the training side is tested on.</source>
        <translation>Gruppendisjunkte Aufteilung: Jeder Vorschlag bringt seine ganze Gruppe (Quelle) in die Trainingsmenge, sodass keine Quelle der Trainingsseite getestet wird.</translation>
    </message>
    <message>
        <source>Could not make a group-disjoint split: %1</source>
        <translation>Keine gruppendisjunkte Aufteilung möglich: %1</translation>
    </message>
</context>
</TS>
