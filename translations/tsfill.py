"""Writes hand-kept translations (a dict keyed by source text) into a Qt .ts file.

A value is a string, or for a numerus message ("%n item(s)") a tuple of its plural forms in the
order the language's plural rules give them (German and English: one, other). Strings the table has
no translation for are named on stdout, and fill() returns 1, so that a refreshed .ts file that
gained strings is caught by ctest's translations_complete.
"""
import xml.etree.ElementTree as ET


def fill(path, table, language):
    tree = ET.parse(path)
    missing = []
    for message in tree.getroot().iter('message'):
        source = message.find('source').text
        translation = message.find('translation')
        text = table.get(source)
        if text is None:
            missing.append(source)
            continue
        for child in list(translation):
            translation.remove(child)
        translation.attrib.pop('type', None)
        if message.get('numerus') == 'yes':
            translation.text = None
            forms = text if isinstance(text, tuple) else (text, text)
            for form in forms:
                ET.SubElement(translation, 'numerusform').text = form
        else:
            translation.text = text if isinstance(text, str) else text[0]
    with open(path, 'wb') as out:
        out.write(b'<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE TS>\n')
        tree.write(out, encoding='utf-8', xml_declaration=False)
        out.write(b'\n')
    for m in missing:
        print(f'no {language} for:', repr(m))
    return 1 if missing else 0
