#!/usr/bin/env python3
"""Issue 32, the pairwise template set (paper App. I), assembled independently.

The paper's pairwise space: the pointwise factors without Scoring Scale and without Self-Generated
criteria (1 x 4 x 2 x 3 x 3 x 2 x 2 x 6 = 1,728 strategies). The paper prints no pairwise template;
ours (README, HPSS section) puts MT-Bench's pairwise judge prompt (pair-v2: compare the two answers,
no position or length bias, verdict "[[A]]" / "[[B]]" / "[[C]]" for a tie) into the pointwise
template's three components (T, E, I) and six orders, with the task's own nouns and headers. This
file writes that description down again and compares every strategy for the five tasks byte for
byte with `hpss-prompt-dump --pairwise`.

usage: pairwise_prompts.py HPSS_PROMPT_DUMP
"""
import itertools
import json
import subprocess
import sys

TASKS = {
    # name: noun, source noun, source header, target name, fact header
    'summeval': ('summary', 'news article', 'Article', 'Summary', ''),
    'topical_chat': ('response', 'conversation', 'Conversation History', 'Response', 'Corresponding Fact'),
    'sfhot': ('sentence', 'structured data expression', 'Structured Data Experssion', 'Natural Language Sentence', ''),
    'sfres': ('sentence', 'structured data expression', 'Structured Data Experssion', 'Natural Language Sentence', ''),
    'hanna': ('story', 'prompt', 'Prompt', 'Story', ''),
}
FACTORS = [('examples', ['0', '3', '5', '10']), ('criteria', ['none', 'human']),
           ('reference', ['none', 'self', 'dialectic']), ('cot', ['none', 'prefix', 'suffix']),
           ('autocot', ['off', 'on']), ('metrics', ['off', 'on']),
           ('order', ['TEI', 'TIE', 'ETI', 'EIT', 'ITE', 'IET'])]


def plural(noun):
    return noun[:-1] + 'ies' if noun.endswith('y') else noun + 's'


def two_outputs(target, a, b):
    return (f'[The Start of {target} A]\n{a}\n[The End of {target} A]\n\n'
            f'[The Start of {target} B]\n{b}\n[The End of {target} B]')


def assemble(task_name, case, s):
    noun, src_noun, src_header, target, fact_header = TASKS[task_name]
    nouns = plural(noun)
    aspect = case['aspect'].lower()
    where = 'below' if s['order'].index('T') < s['order'].index('I') else 'above'
    verdict = (f'"[[A]]" if {noun} A is better, "[[B]]" if {noun} B is better, and "[[C]]" for a tie.')
    t = [f'[Instruction]\nPlease act as an impartial judge and evaluate the quality of the two {nouns} to the '
         f'{src_noun} displayed {where} on their {aspect}. You should choose the {noun} that is better on its '
         f'{aspect}. Avoid any position biases and ensure that the order in which the {nouns} were presented does '
         f'not influence your decision. Do not allow the length of the {nouns} to influence your evaluation.']
    if s['reference'] == 'self':
        t.append(f'You will be given the {src_noun}, the two {nouns} and a high-quality reference {noun}.')
    elif s['reference'] == 'dialectic':
        t.append(f'Please generate your own {noun} for the {src_noun} first and take into account your own {noun} '
                 f'to evaluate the quality of the two {nouns}.')
    if s['cot'] == 'prefix':
        t.append(f'Begin your evaluation by comparing the two {nouns} and provide a short explanation. After '
                 f'providing your explanation, output your final verdict by strictly following this format: '
                 + verdict)
    elif s['cot'] == 'suffix':
        t.append('You must first output your final verdict by strictly following this format: ' + verdict
                 + ' And then provide your explanation.')
    else:
        t.append('You must directly output your final verdict without any explanation by strictly following this '
                 'format: ' + verdict)
    crit = case['criteria'] if s['criteria'] == 'human' else ''
    e = (f'Here are some rules of the evaluation:\n1. Your evaluation should consider the {aspect} of the {nouns}. '
         f'{crit}\n2. Be as objective as possible.\n')
    if s['autocot'] == 'on':
        e += '\nEvaluation Steps:\n' + case['autocot'] + '\n'
    i = ''
    if s['examples'] != '0':
        blocks = []
        for k, ex in enumerate(case['examples'][s['examples']]):
            block = f'# Example {k + 1}:\n[{src_header}]\n{ex["source"]}\n\n'
            if fact_header:
                block += f'[{fact_header}]\n{ex["fact"]}\n'
            block += two_outputs(target, ex['a'], ex['b']) + '\n\n[Verdict]\n' + (
                '[[A]]' if ex['prefers_a'] else '[[B]]')
            blocks.append(block)
        i += ('\nHere are some examples and their corresponding verdicts:\n' + '\n\n'.join(blocks)
              + f'\n\nFollowing these examples, compare the two {nouns} to the {src_noun} displayed below on their '
              f'{aspect}:')
    i += f'\n[{src_header}]\n{case["source"]}\n'
    if s['metrics'] == 'on':
        i += (f'\n[Questions about {nouns[0].upper() + nouns[1:]}]\nHere are some questions about the {nouns}. You '
              f'can do the evaluation based on thinking about all the questions.\n{case["metrics"]}\n')
    i += '\n'
    if fact_header:
        i += f'[{fact_header}]\n{case["fact"]}\n'
    if s['reference'] == 'self':
        cap = noun[0].upper() + noun[1:]
        i += f'\n[The Start of Reference {cap}]\n{case["reference"]}\n[The End of Reference {cap}]\n'
    i += '\n' + two_outputs(target, case['a'], case['b'])
    parts = {'T': ' '.join(t), 'E': e, 'I': i}
    text = ''
    for k, c in enumerate(s['order']):
        if k:
            text += '\n' if s['order'][k - 1] == 'E' else '\n\n'
        text += parts[c]
    return text


def case_for(task):
    def ex(k):
        return {'source': f'Source {k} of {task}: 100% "quoted" {{braces}} %1 \\ back',
                'fact': f'fact {k}', 'a': f'Output A{k}\nsecond line', 'b': f'Output B{k}', 'prefers_a': k % 3 != 1}
    return {'task': task, 'aspect': 'Coherence', 'criteria': 'Coherence (1-5) - the collective quality.',
            'reference': 'A reference %2 text.', 'autocot': '1. Read.\n2. Compare.', 'metrics': '1. Q one?\n2. Q two?',
            'source': 'The source text, with "quotes" and %1.', 'fact': 'The fact.', 'a': 'First output.',
            'b': 'Second output %3.', 'examples': {n: [ex(k) for k in range(int(n))] for n in ('3', '5', '10')}}


def main():
    dump = sys.argv[1]
    failures = total = 0
    for task in TASKS:
        case = case_for(task)
        got = json.loads(subprocess.run([dump, '--pairwise'], input=json.dumps(case), capture_output=True, text=True,
                                        check=True).stdout)
        names = [f for f, _ in FACTORS]
        expected = {}
        for values in itertools.product(*[v for _, v in FACTORS]):
            s = dict(zip(names, values))
            name = 'scale:5,' + ','.join(f'{f}:{s[f]}' for f in names)
            expected[name] = assemble(task, case, s)
        if set(got) != set(expected):
            failures += 1
            print(f'FAIL {task}: strategies differ: {len(got)} vs {len(expected)}')
            continue
        bad = [k for k in expected if got[k] != expected[k]]
        for k in bad[:2]:
            print(f'FAIL {task} {k}:\n--- ours\n{got[k]!r}\n--- expected\n{expected[k]!r}')
        failures += len(bad)
        total += len(expected)
        print(f'{task}: {len(expected) - len(bad)}/{len(expected)} byte for byte')
    if failures:
        print(f'{failures} failures')
        return 1
    print(f'OK: {total} prompts')
    return 0


if __name__ == '__main__':
    sys.exit(main())
