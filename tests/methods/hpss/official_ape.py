#!/usr/bin/env python3
"""The APE-style baseline's prompts against the official code (thu-coai/HPSS, commit 7a03f6f,
baseline/ape.py), with Python's own str.format as the reference implementation:

- the base prompt of every task and aspect of dataset2aspects.py: base_prompt.format(aspect=…,
  criteria=criteria_human[aspect], min=…, max=…) with ape.py's scale (Topical-Chat 3, the others 5;
  groundedness 0 to 1) and the official human criteria files (SHARED_DATA/hpss-artifacts; invented
  criteria with braces when absent);
- the resample prompt of each: resample_prompt.format(prompt=base);
- each base prompt filled for an item as vllm_inference.py prompt_construct fills it (the task's
  field names; reference, criteria, example, metrics, autocot empty; max the parser's default '3');
- a set of candidate variations, usable and not: ours must refuse exactly those whose str.format
  raises, and fill the others byte for byte. Fields with a conversion, format spec, attribute or
  index (which Python may fill) are refused by design: checked as such, listed apart.

The official texts come from the mirror (HPSS_MIRROR, default /work/.mirror/thu-coai+HPSS/repo) when
present; the product's resource files (resources/prompts/hpss_ape) must equal them. Without the mirror
the resource files are checked against the SHA-1 of the official texts recorded below.

Usage: official_ape.py DUMP_BINARY [SHARED_DATA]
"""
import ast
import hashlib
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RESOURCES = os.path.join(HERE, '..', '..', '..', 'resources', 'prompts', 'hpss_ape')
TASKS = ['summeval', 'topical_chat', 'sfhot', 'sfres', 'hanna']
# SHA-1 of the official strings' values (baseline/ape_prompts/<task>.py base_prompt, resample_prompt.py).
OFFICIAL_SHA1 = {
    'summeval': '465939bb14927a1d4be2598b0c60e0aded37fe88',
    'topical_chat': '96d96bd66679cf2c64e7036fc99b0ba636aae64f',
    'sfhot': '9887f3535d369b63080611579f9a2bbd84af620b',
    'sfres': '9887f3535d369b63080611579f9a2bbd84af620b',
    'hanna': 'e7cd7b26bfd7d73b529e3121db3c229f8e96e732',
    'resample': '0a876f483d0d19ed2c95538c98c77dd6f6767ee4',
}
ASPECTS = {
    'summeval': ['coherence', 'consistency', 'fluency', 'relevance'],
    'topical_chat': ['coherence', 'engagingness', 'groundedness', 'naturalness'],
    'sfhot': ['informativeness', 'naturalness'],
    'sfres': ['informativeness', 'naturalness'],
    'hanna': ['relevance', 'coherence', 'empathy', 'surprise', 'engagement', 'complexity'],
}
FIELDS = {'summeval': ('document', 'summary'), 'topical_chat': ('context', 'response'),
          'sfhot': ('expression', 'sentence'), 'sfres': ('expression', 'sentence'), 'hanna': ('prompt', 'story')}


def official_texts():
    mirror = os.environ.get('HPSS_MIRROR', '/work/.mirror/thu-coai+HPSS/repo')
    ours = {}
    for name in TASKS + ['resample']:
        with open(os.path.join(RESOURCES, name + '.txt'), encoding='utf-8', newline='') as f:
            ours[name] = f.read()
    if not os.path.isdir(mirror):
        print('note: no mirror of thu-coai/HPSS at %s; the resource files are checked by SHA-1' % mirror)
        for name, text in ours.items():
            digest = hashlib.sha1(text.encode('utf-8')).hexdigest()
            if digest != OFFICIAL_SHA1[name]:
                sys.exit('FAIL: resources/prompts/hpss_ape/%s.txt: SHA-1 %s, the official text %s'
                         % (name, digest, OFFICIAL_SHA1[name]))
        return ours
    official = {}
    for name in TASKS + ['resample']:
        path = 'HEAD:baseline/ape_prompts/%s.py' % ('resample_prompt' if name == 'resample' else name)
        src = subprocess.run(['git', '-C', mirror, 'show', path], capture_output=True, text=True, check=True).stdout
        for node in ast.parse(src).body:  # string constants only: nothing of theirs runs
            if isinstance(node, ast.Assign):
                official[name] = ast.literal_eval(node.value)
        if official[name] != ours[name]:
            sys.exit('FAIL: resources/prompts/hpss_ape/%s.txt differs from the official text' % name)
    src = subprocess.run(['git', '-C', mirror, 'show', 'HEAD:dataset2aspects.py'], capture_output=True, text=True,
                         check=True).stdout
    if ast.literal_eval(src.split('=', 1)[1].strip()) != ASPECTS:
        sys.exit('FAIL: dataset2aspects.py differs from ASPECTS here')
    print('the 6 APE-style resource files equal the official strings; the aspects equal dataset2aspects.py')
    return official


def criteria_for(shared, task, aspect):
    art = os.path.join(shared, 'hpss-artifacts', 'auxiliary', task, 'criteria')
    name = {'topical_chat': 'criteria_human_scale_3.json', 'hanna': 'criteria_human_scale_5.json'}.get(
        task, 'criteria_human.json')
    path = os.path.join(art, name)
    if os.path.exists(path):
        with open(path, encoding='utf-8') as f:
            data = json.load(f)
        if aspect in data:
            return data[aspect]
    return 'Invented criteria of %s: {braces} and {{doubled}} stay as they are, {min} too.' % aspect


VARIATIONS = [  # (text, refused by design although Python may fill it)
    ('Rate the {summary} of {document} on {aspect} from {min} to {max}.', False),
    ('{{literal braces}} around {document}', False),
    ('{criteria}{example}{metrics}{autocot}{reference}|{document}', False),
    ('{document}}', False),
    ('{unknown} field', False),
    ('a positional {} field', False),
    ('a numbered {0} field', False),
    ('an open { brace', False),
    ('a close } brace', False),
    ('{ document} with a space', False),
    ('{fact} of a conversation', False),
    ('{context} and {response}', False),
    ('{prompt} and {story}', False),
    ('{expression} and {sentence}', False),
    ('no field at all, ümlauts and "quotes"', False),
    ('{document!r}', True),
    ('{min:>3}', True),
    ('{document.upper}', True),
    ('{document[0]}', True),
]


def python_format(text, kwargs):
    try:
        return True, text.format(**kwargs)
    except Exception as e:  # what ape.py's bare except catches
        return False, '%s: %s' % (type(e).__name__, e)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    dump = sys.argv[1]
    shared = sys.argv[2] if len(sys.argv) > 2 else os.path.join(HERE, '..', '..', '..', '..', 'shared', 'data')
    official = official_texts()
    cases, expected = [], []
    item = {'source': 'An article with {braces}, "quotes" and ümlauts.', 'output': 'A summary {x}.',
            'fact': 'A fact {y}.'}
    for task in TASKS:
        src, tgt = FIELDS[task]
        for aspect in ASPECTS[task]:
            lo, hi = (0, 1) if aspect == 'groundedness' else (1, 3 if task == 'topical_chat' else 5)
            criteria = criteria_for(shared, task, aspect)
            base = official[task].format(aspect=aspect, criteria=criteria, min=lo, max=hi)
            cases.append({'kind': 'base', 'task': task, 'aspect': aspect, 'criteria': criteria, 'min': lo, 'max': hi})
            expected.append((True, base, None))
            cases.append({'kind': 'resample', 'prompt': base})
            expected.append((True, official['resample'].format(prompt=base), None))
            kwargs = {src: item['source'], tgt: item['output'], 'reference': '', 'criteria': '', 'aspect': aspect,
                      'example': '', 'metrics': '', 'autocot': '', 'min': lo if aspect == 'groundedness' else 1,
                      'max': '3'}
            if task == 'topical_chat':
                kwargs['fact'] = item['fact']
            fill = {'kind': 'fill', 'task': task, 'aspect': aspect, 'source': item['source'],
                    'output': item['output'], 'fact': item['fact'], 'min': kwargs['min']}
            cases.append(dict(fill, prompt=base))
            expected.append(python_format(base, kwargs) + (None,))
            for text, by_design in VARIATIONS:
                cases.append(dict(fill, prompt=text))
                expected.append(python_format(text, kwargs) + (by_design,))
    out = subprocess.run([dump, '--ape'], input=json.dumps(cases).encode('utf-8'), capture_output=True, check=True)
    got = json.loads(out.stdout.decode('utf-8'))
    if len(got) != len(cases):
        sys.exit('FAIL: %d answers for %d cases' % (len(got), len(cases)))
    counts = {'base': 0, 'resample': 0, 'fill': 0, 'refused': 0, 'by_design': 0}
    for case, (ok, text, by_design), ours in zip(cases, expected, got):
        where = '%s %s %s %r' % (case['kind'], case.get('task', ''), case.get('aspect', ''),
                                 case.get('prompt', '')[:60])
        if by_design:
            if ours['ok']:
                sys.exit('FAIL: %s: filled, but fields with a conversion/spec/attribute/index are refused' % where)
            counts['by_design'] += 1
            continue
        if ok != ours['ok']:
            sys.exit('FAIL: %s: Python %s (%s), ours %s (%s)' % (where, 'fills it' if ok else 'raises', text,
                                                                  'fills it' if ours['ok'] else 'refuses',
                                                                  ours.get('error', '')))
        if ok and ours['text'] != text:
            sys.exit('FAIL: %s differs:\n--- Python\n%s\n--- ours\n%s' % (where, text, ours['text']))
        counts[case['kind']] += 1
        if not ok:
            counts['refused'] += 1
    print('APE-style: %d base prompts, %d resample prompts, %d fills byte for byte as Python str.format '
          '(%d refused where Python raises), %d refused by design (conversion/spec/attribute/index)'
          % (counts['base'], counts['resample'], counts['fill'], counts['refused'], counts['by_design']))


if __name__ == '__main__':
    main()
