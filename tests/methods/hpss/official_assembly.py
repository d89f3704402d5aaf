#!/usr/bin/env python3
"""An independent re-implementation of the official HPSS prompt assembly (thu-coai/HPSS, commit 7a03f6f),
written for this test from reading the authors' code, not from ours and not copied from theirs:

- `item.py: Item.construct_prompt` picks a layout per order (TEI, TIE, ETI use the "below" instruction,
  EIT, ITE, IET the "above" one) and puts the factor snippets into its placeholders by plain string
  replacement;
- `vllm_inference.py: prompt_construct` then fills the item's fields with str.format, min/max being 1
  and the scale, except Topical-Chat groundedness whose minimum is 0 (its "max 1 at scale 3" branch
  compares the string '3' with the integer 3 and never fires, so the prompt says "0 to 3");
- the in-context examples arrive pre-rendered (auxiliary/<task>/example/*.json): "# Example k:", the
  source block, a blank line, Topical-Chat's "[Corresponding Fact]", the target block, "[Rating]" and
  the rating on the strategy's scale; examples are joined by a blank line.

The snippet texts below are the authors' (each task keeps its own wording and spelling, including
"Experssion" and the trailing spaces). When the mirror of the authors' repository is present
(HPSS_MIRROR, default /work/.mirror/thu-coai+HPSS/repo) the test first checks every text here against
the official template.py files, so a typo here cannot hide a typo there.

Usage: official_assembly.py DUMP_BINARY [SHARED_DATA]
Builds one case per task (real items from SHARED_DATA when present, else invented ones), lets
DUMP_BINARY (tests/methods/HpssPromptDump.cpp) assemble all 12,960 strategies of each with the product's
code, and compares SHA-1 hashes; on a mismatch it prints the first differing strategy and both texts.
"""
import ast
import hashlib
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time

# --- The official snippets, per task (sfhot and sfres share one file's text) ---------------------------

_RATE = 'by strictly following this format: "[[rating]]", for example: "Rating: [[{max}]]".'


def _snippets(noun, phrase, ref1, dialectic_obj, tail='', above_space=False, cot_space=False, lead=None):
    below = ('[Instruction]\nPlease act as an impartial judge and evaluate the quality of %s displayed below on its '
             '{aspect}. %s' % (phrase, tail))
    above = ('[Instruction]\nPlease act as an impartial judge and evaluate the quality of %s displayed above on its '
             '{aspect}.%s' % (phrase, (' ' + tail) if tail or above_space else ''))
    sp = ' ' if cot_space else ''
    cap = noun[:1].upper() + noun[1:]
    return {
        'instruction_1': below,
        'instruction_2': above,
        'rule_1': ('Here are some rules of the evaluation:\n1. Your evaluation should consider the {aspect} of the %s. '
                   '{criteria}\n2. Be as objective as possible.\n' % noun),
        'rule_2': ('Here are some rules of the evaluation:\n1. Your evaluation should consider the {aspect} of the %s. '
                   '\n2. Be as objective as possible.\n' % noun),
        'metrics_prompt': ('\n[Questions about %s]\nHere are some questions about the %s. You can do the evaluation '
                           'based on thinking about all the questions.\n{metrics}\n' % (cap, noun)),
        'example_prompt': ('\nHere are some examples and their corresponding ratings:\n{example}\n\nFollowing these '
                           'examples, evaluate %s displayed below on its {aspect}:'
                           % (lead if lead is not None else 'the quality of ' + phrase)),
        'prefix_cot': ('Begin your evaluation by providing a short explanation. After providing your explanation, you '
                       'must rate the %s on a scale of {min} to {max} %s%s' % (noun, _RATE, sp)),
        'suffix_cot': ('You must rate the %s on a scale of {min} to {max} first %s And then provide your '
                       'explanation.%s' % (noun, _RATE, sp)),
        'cot_free': ('You must directly output your rating of the %s on a scale of {min} to {max} without any '
                     'explanation %s ' % (noun, _RATE)),
        'reference_1': ref1,
        'reference_2': '\n[The Start of Reference %s]\n{reference}\n[The End of Reference %s]\n' % (cap, cap),
        'dialectic': ('Please generate your own %s first and take into account your own %s to evaluate the quality '
                      'of the given %s.' % (dialectic_obj, noun, noun)),
        'autocot_prompt': '\nEvaluation Steps:\n{autocot}\n',
    }


_SF = _snippets('sentence', 'a natural language sentence generated according to a structured data expression',
                'You will be given the structured data expression, the sentence and a high-quality reference sentence.',
                'sentence according to the given structured data expression')
SNIPPETS = {
    'summeval': _snippets('summary', 'the summary to the news article',
                          'You will be given the news article, the summary and a high-quality reference summary.',
                          'summary for the news article'),
    'topical_chat': _snippets('response', 'the response for the next turn in the conversation',
                              'You will also be given a high-quality reference response with the conversation. ',
                              'response for the next turn in the conversation',
                              tail='The response concerns an interesting fact, which will be provided as well. ',
                              cot_space=True),
    'sfhot': _SF,
    'sfres': _SF,
    'hanna': _snippets('story', 'the story generated according to a prompt',
                       'You will be given the prompt, the generated story and a high-quality reference story.',
                       'story for the given prompt', lead='the story generated according to a prompt'),
}
# The input content: the source header, the field names and the target block's name.
INPUT = {
    'summeval': ('[Article]\n{document}\n{metrics}\n{reference_2}\n[The Start of the Summary]\n{summary}\n'
                 '[The End of the Summary]'),
    'topical_chat': ('[Conversation History]\n{context}\n{metrics}\n[Corresponding Fact]\n{fact}\n{reference_2}\n'
                     '[The Start of the Response]\n{response}\n[The End of the Response]'),
    'sfhot': ('[Structured Data Experssion]\n{expression}\n{metrics}\n{reference_2}\n'
              '[The Start of the Natural Language Sentence]\n{sentence}\n[The End of the Natural Language Sentence]'),
    'hanna': '[Prompt]\n{prompt}\n{metrics}\n{reference_2}\n[The Start of the Story]\n{story}\n[The End of the Story]',
}
INPUT['sfres'] = INPUT['sfhot']
FIELDS = {  # (source field, target field) in the task's format() call
    'summeval': ('document', 'summary'),
    'topical_chat': ('context', 'response'),
    'sfhot': ('expression', 'sentence'),
    'sfres': ('expression', 'sentence'),
    'hanna': ('prompt', 'story'),
}
T = '{instruction}{reference_1}{dialectic}{cot}'
E = '{rule}{autocot}'


def layout(task, order):
    i = '{example}\n' + INPUT[task]
    return {
        'TEI': T + '\n\n' + E + '\n' + i,
        'TIE': T + '\n\n' + i + '\n\n' + E,
        'ITE': i + '\n\n' + T + '\n\n' + E,
        'IET': i + '\n\n' + E + '\n' + T,
        'EIT': E + '\n' + i + '\n\n' + T,
        'ETI': E + '\n' + T + '\n\n' + i,
    }[order]


# --- Examples, as the official example files write them -----------------------------------------------

SOURCE_HEADER = {'summeval': 'Article', 'topical_chat': 'Conversation History', 'sfhot': 'Structured Data Experssion',
                 'sfres': 'Structured Data Experssion', 'hanna': 'Prompt'}
TARGET_NAME = {'summeval': 'Summary', 'topical_chat': 'Response', 'sfhot': 'Natural Language Sentence',
               'sfres': 'Natural Language Sentence', 'hanna': 'Story'}
NATIVE = {'summeval': 5, 'topical_chat': 3, 'sfhot': 5, 'sfres': 5, 'hanna': 5}


def example_rating(task, human, hmin, hmax, smin, scale):
    """The rating an official example file writes for a human rating, read off those files: the task's
    own scale keeps the human number; scales up to 5 map linearly onto [min, scale]; 10, 50 and 100
    take scale * (h - hmin) / (hmax - hmin), never below the minimum."""
    t = (human - hmin) / (hmax - hmin)
    if scale == NATIVE[task]:
        v = human
    elif scale <= 5:
        v = smin + t * (scale - smin)
    else:
        v = max(smin, t * scale)
    v = round(v * 100) / 100
    return ('%.2f' % v).rstrip('0').rstrip('.')


def render_examples(task, examples, hmin, hmax, smin, scale):
    blocks = []
    for k, e in enumerate(examples, 1):
        b = '# Example %d:\n[%s]\n%s\n\n' % (k, SOURCE_HEADER[task], e['source'])
        if task == 'topical_chat':
            b += '[Corresponding Fact]\n%s\n' % e['fact']
        b += '[The Start of the %s]\n%s\n[The End of the %s]\n\n[Rating]\n%s' % (
            TARGET_NAME[task], e['output'], TARGET_NAME[task], example_rating(task, e['human'], hmin, hmax, smin, scale))
        blocks.append(b)
    return '\n\n'.join(blocks)


# --- The assembly -------------------------------------------------------------------------------------

def _format(text, values):
    """str.format for plain {name} fields: each field once, values never re-read."""
    return re.sub(r'\{(\w+)\}', lambda m: str(values[m.group(1)]), text)


def assemble(case, s):
    """The user message the official code sends for strategy s (a dict of our factor names)."""
    task = case['task']
    sn = SNIPPETS[task]
    order = s['order']
    p = layout(task, order)
    p = p.replace('{instruction}', sn['instruction_1'] if order in ('TEI', 'TIE', 'ETI') else sn['instruction_2'])
    ref = s['reference']
    p = p.replace('{reference_1}', sn['reference_1'] if ref == 'self' else '')
    p = p.replace('{reference_2}', sn['reference_2'] if ref == 'self' else '')
    p = p.replace('{dialectic}', sn['dialectic'] if ref == 'dialectic' else '')
    p = p.replace('{rule}', sn['rule_2'] if s['criteria'] == 'none' else sn['rule_1'])
    p = p.replace('{example}', '' if s['examples'] == '0' else sn['example_prompt'])
    p = p.replace('{metrics}', sn['metrics_prompt'] if s['metrics'] == 'on' else '')
    p = p.replace('{autocot}', sn['autocot_prompt'] if s['autocot'] == 'on' else '')
    p = p.replace('{cot}', {'prefix': sn['prefix_cot'], 'suffix': sn['suffix_cot'], 'none': sn['cot_free']}[s['cot']])

    scale = s['scale']
    item = case['item']
    variant = 'self' if s['criteria'] == 'self' else 'human'
    src, tgt = FIELDS[task]
    values = {
        src: item['source'], tgt: item['output'], 'fact': item.get('fact', ''),
        'reference': item['reference'] if ref == 'self' else '',
        'criteria': case['criteria'][variant][scale] if s['criteria'] != 'none' else '',
        'aspect': case['aspect'],
        'example': '' if s['examples'] == '0' else render_examples(
            task, case['examples'][s['examples']], case['human_min'], case['human_max'], case['scale_min'], int(scale)),
        'metrics': item['metrics'] if s['metrics'] == 'on' else '',
        'autocot': case['autocot'][variant][scale] if s['autocot'] == 'on' else '',
        'min': case['scale_min'], 'max': scale,
    }
    return _format(p, values)


FACTORS = [('scale', ['3', '5', '10', '50', '100']), ('examples', ['0', '3', '5', '10']),
           ('criteria', ['none', 'human', 'self']), ('reference', ['none', 'self', 'dialectic']),
           ('cot', ['none', 'prefix', 'suffix']), ('autocot', ['off', 'on']), ('metrics', ['off', 'on']),
           ('order', ['TEI', 'TIE', 'ETI', 'EIT', 'ITE', 'IET'])]


def strategies():
    for values in itertools.product(*[v for _, v in FACTORS]):
        yield dict(zip([f for f, _ in FACTORS], values))


def strategy_name(s):
    return ','.join('%s:%s' % (f, s[f]) for f, _ in FACTORS)


# --- The official texts, checked against the mirror when it is here -----------------------------------

def example_targets(hmin, hmax, n):
    """The integer ratings the official example files show for n examples of a hmin..hmax human scale:
    n positions spread evenly over the ratings, each rounded half to even (Python's round); the middle
    position of an odd n on an even number of ratings (0.5 of groundedness's 0-1) is left out."""
    values = hmax - hmin + 1
    out = []
    for j in range(n):
        if (values - 1) % 2 == 1 and 2 * j == n - 1:
            continue
        pos = 0 if n == 1 else j * (values - 1) / (n - 1)
        out.append(hmin + round(pos))
    return out


def check_against_mirror():
    mirror = os.environ.get('HPSS_MIRROR', '/work/.mirror/thu-coai+HPSS/repo')
    if not os.path.isdir(mirror):
        print('note: no mirror of thu-coai/HPSS at %s; the snippet texts are not re-checked' % mirror)
        return
    for task in SNIPPETS:
        src = subprocess.run(['git', '-C', mirror, 'show', 'HEAD:prompts/search/%s/template.py' % task],
                             capture_output=True, text=True, check=True).stdout
        official = {}
        for node in ast.parse(src).body:  # string constants only: nothing of theirs runs
            if isinstance(node, ast.Assign):
                official[node.targets[0].id] = ast.literal_eval(node.value)
        for name, text in SNIPPETS[task].items():
            if official[name] != text:
                sys.exit('FAIL: %s %s differs from the official template:\n  ours %r\n  theirs %r'
                         % (task, name, text, official[name]))
        for order in ('TEI', 'TIE', 'ITE', 'IET', 'EIT', 'ETI'):
            if official[order] != layout(task, order):
                sys.exit('FAIL: %s layout %s differs from the official template:\n  ours %r\n  theirs %r'
                         % (task, order, layout(task, order), official[order]))
    print('snippets and layouts of the 5 tasks equal the official template.py files')
    # The example files' rating sequences at the task's own scale equal example_targets (point 5).
    native = {'summeval': 5, 'topical_chat': 3, 'sfhot': 5, 'sfres': 5, 'hanna': 5}
    checked = 0
    for task, scale in native.items():
        for n in (3, 5, 10):
            path = 'HEAD:auxiliary/%s/example/few_shot_%s_scale_%d_number_%d.json' % (task, task, scale, n)
            files = json.loads(subprocess.run(['git', '-C', mirror, 'show', path], capture_output=True, text=True,
                                              check=True).stdout)
            for aspect, text in files.items():
                ratings = [int(r) for r in re.findall(r'\[Rating\]\n(\d+)', text)]
                hmin, hmax = (0, 1) if aspect == 'groundedness' else (1, scale)
                want = example_targets(hmin, hmax, n)
                if task == 'hanna' and aspect not in ('relevance', 'coherence'):
                    want = [r for r in want if r != 5]  # no validation story has a 5 there: left out
                if ratings != want:
                    sys.exit('FAIL: %s %s n=%d: the official file shows %r, the rule gives %r'
                             % (task, aspect, n, ratings, want))
                checked += 1
    print('the rating sequences of %d official example files equal the example rule' % checked)


# --- The cases ----------------------------------------------------------------------------------------

def _load(path):
    with open(path, encoding='utf-8') as f:
        return json.load(f)


def build_cases(shared):
    art = os.path.join(shared, 'hpss-artifacts', 'auxiliary')
    have = os.path.isdir(art)
    scales = ['3', '5', '10', '50', '100']

    def crit(task, aspect, kind):
        out = {}
        for sc in scales:
            if have:
                if task in ('topical_chat', 'hanna'):
                    name = 'criteria_%s_scale_%s.json' % ('human' if kind == 'human' else 'llm_qwen_2_5_14b', sc)
                else:
                    name = 'criteria_%s.json' % ('human' if kind == 'human' else 'llm_qwen_2_5_14b')
                out[sc] = _load(os.path.join(art, task, 'criteria', name))[aspect]
            else:
                out[sc] = '%s criteria of %s at scale %s: { braces } stay.' % (kind, aspect, sc)
        return out

    def steps(task, aspect, kind):
        out = {}
        for sc in scales:
            if have:
                name = 'autocot_%s_criteria_qwen_2_5_14b_scale_%s.json' % ('human' if kind == 'human' else 'llm', sc)
                out[sc] = _load(os.path.join(art, task, 'autocot', name))[aspect]
            else:
                out[sc] = '1. Read the %s.\n2. Rate %s from 1 to %s.' % (task, aspect, sc)
        return out

    def cut(s, n=500):
        return s if len(s) <= n else s[:n]

    items = {}
    se = os.path.join(shared, 'summeval', 'summeval_bartscore_data.json')
    if os.path.exists(se):
        d = _load(se)
        items['summeval'] = [{'source': cut(x['source']), 'output': x['system_output'], 'human': x['scores']['coherence']}
                             for x in d[:40]]
    tc = os.path.join(shared, 'topical-chat')
    tcf = [f for f in (os.listdir(tc) if os.path.isdir(tc) else []) if f.endswith('.json')]
    if tcf:
        d = _load(os.path.join(tc, sorted(tcf)[0]))
        if isinstance(d, list) and d and 'source' in d[0]:
            items['topical_chat'] = [{'source': cut(x['source']), 'output': x['system_output'],
                                      'fact': x.get('context', ''), 'scores': x.get('scores', {})} for x in d[:40]]
    hn = os.path.join(shared, 'hanna', 'hanna_valid_qwen_2_5_14b.json')
    if os.path.exists(hn):
        d = _load(hn)
        items['hanna'] = [{'source': x['prompt'], 'output': cut(x['story']), 'human': x['scores']['coherence'],
                           'reference': cut(x['generated_reference']), 'metrics': x['metrics_coherence']}
                          for x in d[:40]]

    def invented(task, n=12):
        return [{'source': 'Source %d of %s: "quotes", {braces}, ümlauts.' % (k, task),
                 'output': 'Output %d, rated.' % k, 'fact': 'fact %d' % k, 'human': 1 + (k % 5)} for k in range(n)]

    def pick(pool, n, key='human'):
        # Distinct examples in ascending rating (the selection itself is tested elsewhere).
        chosen = sorted(pool[:n], key=lambda e: e[key])
        return [{'source': e['source'], 'output': e['output'], 'fact': e.get('fact', ''), 'human': e[key]}
                for e in chosen]

    cases = []
    specs = [('summeval', 'coherence', 1, 5, 1), ('topical_chat', 'coherence', 1, 3, 1),
             ('topical_chat', 'groundedness', 0, 1, 0), ('sfhot', 'informativeness', 1, 5, 1),
             ('sfres', 'naturalness', 1, 5, 1), ('hanna', 'coherence', 1, 5, 1)]
    for task, aspect, hmin, hmax, smin in specs:
        pool = items.get(task) or invented(task)
        if task == 'topical_chat':
            pool = [dict(e, human=(e.get('scores') or {}).get(aspect, hmin + (k % (hmax - hmin + 1))))
                    for k, e in enumerate(pool)]
            for e in pool:
                e['human'] = min(hmax, max(hmin, e['human']))
        target = pool[-1]
        case = {
            'task': task, 'aspect': aspect, 'human_min': hmin, 'human_max': hmax, 'scale_min': smin,
            'item': {'source': target['source'], 'output': target['output'], 'fact': target.get('fact', 'a fact'),
                     'reference': target.get('reference', 'An own reference {with braces}.'),
                     'metrics': target.get('metrics', '1. Is it good?\n2. Is it {really} good?')},
            'criteria': {'human': crit(task, aspect, 'human'), 'self': crit(task, aspect, 'llm')},
            'autocot': {'human': steps(task, aspect, 'human'), 'self': steps(task, aspect, 'llm')},
            'examples': {str(n): pick(pool, n) for n in (3, 5, 10)},
        }
        cases.append(case)
    return cases


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    dump = sys.argv[1]
    shared = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), '..', '..', '..', '..',
                                                               'shared', 'data')
    check_against_mirror()
    cases = build_cases(shared)
    failures = 0
    total = 0
    for case in cases:
        with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False, encoding='utf-8') as f:
            json.dump(case, f, ensure_ascii=False)
            path = f.name
        try:
            t0 = time.time()
            out = subprocess.run([dump, path], capture_output=True, check=True).stdout.decode('utf-8')
            t_cpp = time.time() - t0
        finally:
            os.unlink(path)
        ours = dict(line.split('\t', 1) for line in out.splitlines() if line)
        t0 = time.time()
        bad = []
        n = 0
        for s in strategies():
            n += 1
            name = strategy_name(s)
            text = assemble(case, s)
            if ours.get(name) != hashlib.sha1(text.encode('utf-8')).hexdigest():
                bad.append((name, text))
        total += n
        print('%-12s %-15s %d strategies, %d identical, %d differ (C++ %.1fs, Python %.1fs)'
              % (case['task'], case['aspect'], n, n - len(bad), len(bad), t_cpp, time.time() - t0))
        if bad:
            failures += len(bad)
            name, text = bad[0]
            shown = subprocess.run([dump, '--show', name], input=json.dumps(case, ensure_ascii=False).encode('utf-8'),
                                   capture_output=True).stdout.decode('utf-8')
            print('  first: %s\n  official: %r\n  ours:     %r' % (name, text, shown))
    # The product's example draw: the ratings it shows per count, for every human range of the tasks.
    for hmin, hmax in ((1, 5), (1, 3), (0, 1)):
        for n in (3, 5, 10):
            got = subprocess.run([dump, '--targets', str(hmin), str(hmax), str(n)], capture_output=True, text=True,
                                 check=True).stdout.strip()
            want = ','.join(str(r) for r in example_targets(hmin, hmax, n))
            if got != want:
                failures += 1
                print('example ratings %d-%d, %d examples: ours %s, official %s' % (hmin, hmax, n, got, want))
    if failures:
        sys.exit('FAIL: %d of %d assembled prompts or example draws differ from the official assembly'
                 % (failures, total))
    print('OK: all %d assembled prompts equal the official assembly byte for byte' % total)


if __name__ == '__main__':
    main()
