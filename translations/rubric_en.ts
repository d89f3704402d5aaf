<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>CriterionDetail</name>
    <message numerus="yes">
        <source>answered on %n item(s)</source>
        <translation><numerusform>answered on %n item</numerusform><numerusform>answered on %n items</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Literature (%n paper(s))</source>
        <translation><numerusform>Literature (%n paper)</numerusform><numerusform>Literature (%n papers)</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Refused by the endpoint (%n item(s)):</source>
        <translation><numerusform>Refused by the endpoint (%n item):</numerusform><numerusform>Refused by the endpoint (%n items):</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::DecomposeDialog</name>
    <message numerus="yes">
        <source>%n proposal(s) for %1. Uncheck those to reject, then add the accepted ones; their scores come with the judge's next run (one call per item and node).</source>
        <translation><numerusform>%n proposal for %1. Uncheck it to reject it, then add it if accepted; its scores come with the judge's next run (one call per item and node).</numerusform><numerusform>%n proposals for %1. Uncheck those to reject, then add the accepted ones; their scores come with the judge's next run (one call per item and node).</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::HdEvalPanel</name>
    <message numerus="yes">
        <source>%n group(s) have items on both sides of the split: the test figures are not on unseen groups (draw the split by group)</source>
        <translation><numerusform>%n group has items on both sides of the split: the test figures are not on unseen groups (draw the split by group)</numerusform><numerusform>%n groups have items on both sides of the split: the test figures are not on unseen groups (draw the split by group)</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::HeatmapPane</name>
    <message numerus="yes">
        <source>%n item(s)</source>
        <translation><numerusform>%n item</numerusform><numerusform>%n items</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n criterion column(s)</source>
        <translation><numerusform>%n criterion column</numerusform><numerusform>%n criterion columns</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::ImportDialog</name>
    <message numerus="yes">
        <source>the definition(s) of %n aspect(s)</source>
        <translation><numerusform>the definition of %n aspect</numerusform><numerusform>the definitions of %n aspects</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::MainWindow</name>
    <message numerus="yes">
        <source>%Ln item(s)</source>
        <translation><numerusform>%Ln item</numerusform><numerusform>%Ln items</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n aspect(s)</source>
        <translation><numerusform>%n aspect</numerusform><numerusform>%n aspects</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n judge(s)</source>
        <translation><numerusform>%n judge</numerusform><numerusform>%n judges</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Imported %Ln item(s) with %1.</source>
        <translation><numerusform>Imported %Ln item with %1.</numerusform><numerusform>Imported %Ln items with %1.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%Ln human score(s)</source>
        <translation><numerusform>%Ln human score</numerusform><numerusform>%Ln human scores</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>Exported the scores of %Ln item(s) to %1.</source>
        <translation><numerusform>Exported the scores of %Ln item to %1.</numerusform><numerusform>Exported the scores of %Ln items to %1.</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::ProfileEditor</name>
    <message numerus="yes">
        <source> · %n retry(s)</source>
        <translation><numerusform> · %n retry</numerusform><numerusform> · %n retries</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::RubricDiffDialog</name>
    <message numerus="yes">
        <source>%n change(s) from version %1 to version %2.</source>
        <translation><numerusform>%n change from version %1 to version %2.</numerusform><numerusform>%n changes from version %1 to version %2.</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::RubricPane</name>
    <message numerus="yes">
        <source> — unsaved changes (%n edit(s))</source>
        <translation><numerusform> — unsaved changes (%n edit)</numerusform><numerusform> — unsaved changes (%n edits)</numerusform></translation>
    </message>
</context>
<context>
    <name>rubric::RunPane</name>
    <message numerus="yes">
        <source>Run '%1' done: %Ln item(s) scored, %2 without a score; %3.</source>
        <translation><numerusform>Run '%1' done: %Ln item scored, %2 without a score; %3.</numerusform><numerusform>Run '%1' done: %Ln items scored, %2 without a score; %3.</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%Ln call(s) sent, %1 from the cache</source>
        <translation><numerusform>%Ln call sent, %1 from the cache</numerusform><numerusform>%Ln calls sent, %1 from the cache</numerusform></translation>
    </message>
    <message numerus="yes">
        <source>%n item(s) refused by the endpoint (see Issues; tick 'Ask refused items again' and press Resume to ask them again).</source>
        <translation><numerusform>%n item refused by the endpoint (see Issues; tick 'Ask refused items again' and press Resume to ask it again).</numerusform><numerusform>%n items refused by the endpoint (see Issues; tick 'Ask refused items again' and press Resume to ask them again).</numerusform></translation>
    </message>
</context>
</TS>
