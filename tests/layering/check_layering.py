#!/usr/bin/env python3
"""The rooms of the code and the doors between them (docs/ARCHITECTURE.md).

Checks, over app/, core/ and ui/ (not tests/):
1. Inside core, a room includes only rooms below it (or itself): util < data, rubric < store <
   judge, stats, io < learn < methods (the base: Method.h, the registry, RunContext) <
   methods/<method> < runs < report. Rooms of one rank do not include each other, nor does one
   method's folder include another's.
2. No method's name is compared (or written as a string) outside core/methods/ and ui/methods/:
   what a view or a command needs to know of a method comes from its MethodInfo / MethodViews.
3. A method's own headers (core/methods/<m>/) are included in ui/ only from ui/methods/<m>/.
4. No SQL outside core/store/: no QSqlQuery / QSqlDatabase, no SQL statement text.
Prints every breach with file and line; exit status 1 when there is one.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..', '..'))

RANK = {
    'util': 0,
    'data': 1, 'rubric': 1,
    'store': 2,
    'judge': 3, 'stats': 3, 'io': 3,
    'learn': 4,
    'methods': 5,
    'methods/*': 6,
    'runs': 7,
    'report': 8,
}


def methods():
    text = open(os.path.join(ROOT, 'core', 'methods', 'CMakeLists.txt')).read()
    m = re.search(r'set\(RUBRIC_METHODS([^)]*)\)', text)
    if not m:
        sys.exit('core/methods/CMakeLists.txt: no set(RUBRIC_METHODS ...)')
    return m.group(1).split()


def sources(top):
    for d, _, files in os.walk(os.path.join(ROOT, top)):
        for f in sorted(files):
            if f.endswith(('.h', '.cpp')):
                yield os.path.relpath(os.path.join(d, f), ROOT)


def core_room(parts):
    """The room of a core path given as its parts below core/ (folder, [method folder], file)."""
    if len(parts) < 2:
        return None
    if parts[0] == 'methods' and len(parts) > 2:
        return 'methods/' + parts[1]
    return parts[0]


def rank(room):
    return RANK['methods/*'] if room.startswith('methods/') else RANK.get(room)


def code_lines(path):
    """(number, line) of the file with comments blanked out (// and /* */), strings kept."""
    text = open(os.path.join(ROOT, path), encoding='utf-8').read()
    out, i, n, in_block = [], 0, len(text), False
    buf = []
    while i < n:
        c = text[i]
        if in_block:
            if text.startswith('*/', i):
                in_block = False
                i += 2
                continue
            buf.append('\n' if c == '\n' else ' ')
            i += 1
            continue
        if text.startswith('/*', i):
            in_block = True
            i += 2
            continue
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            buf.append(text[i:j + 1])
            i = j + 1
            continue
        if c == "'" and i + 2 < n:
            j = text.find("'", i + 1 if text[i + 1] != '\\' else i + 3)
            buf.append(text[i:j + 1])
            i = j + 1
            continue
        buf.append(c)
        i += 1
    return list(enumerate(''.join(buf).split('\n'), 1))


INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SQL_API = re.compile(r'\bQSql(Query|Database|Record|Error|Driver)\b|#\s*include\s*<QtSql')
SQL_TEXT = re.compile(r'"\s*(SELECT\s|INSERT\s+INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s|CREATE\s+(TABLE|INDEX|VIEW)\s'
                      r'|DROP\s|ALTER\s+TABLE\s|PRAGMA\s)')


def main():
    names = methods()
    name_literal = re.compile(r'"(%s)"' % '|'.join(map(re.escape, names)))
    breaches = []
    for top in ('core', 'ui', 'app'):
        for path in sources(top):
            parts = path.split(os.sep)
            in_method_folder = (len(parts) > 3 and parts[1] == 'methods' and parts[0] in ('core', 'ui')
                                and parts[2] in names)
            room = core_room(parts[1:]) if top == 'core' else None
            for no, line in code_lines(path):
                where = '%s:%d' % (path, no)
                inc = INCLUDE.match(line)
                if inc:
                    target = inc.group(1).split('/')
                    if top == 'core' and room and len(target) > 1:
                        to = core_room(target)
                        if to and to != room and rank(to) is not None and rank(room) is not None \
                                and rank(to) >= rank(room):
                            breaches.append('%s: core/%s includes "%s" (room %s is not below %s)'
                                            % (where, room, inc.group(1), to, room))
                    if top == 'ui' and len(target) > 2 and target[0] == 'methods' and target[1] in names:
                        own = len(parts) > 3 and parts[1] == 'methods' and parts[2] == target[1]
                        if not own:
                            breaches.append('%s: includes method %s\'s "%s" outside ui/methods/%s/'
                                            % (where, target[1], inc.group(1), target[1]))
                    continue
                if not in_method_folder and name_literal.search(line):
                    breaches.append('%s: the method name %s outside the method folders: %s'
                                    % (where, name_literal.search(line).group(0), line.strip()))
                if parts[:2] != ['core', 'store'] and (SQL_API.search(line) or SQL_TEXT.search(line)):
                    breaches.append('%s: SQL outside core/store/: %s' % (where, line.strip()))
    for b in breaches:
        print(b)
    print('%d breach(es) of the layering' % len(breaches))
    return 1 if breaches else 0


if __name__ == '__main__':
    sys.exit(main())
