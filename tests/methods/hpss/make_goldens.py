#!/usr/bin/env python3
"""Writes the HPSS golden prompts BY HAND from hpss.md §4 (not from the C++ code), corrected where the
official code (thu-coai/HPSS, prompts/search/summeval/template.py and the example files) differs from the
spec (issue 32): the "above" instruction ends without a space and each example is headed "# Example k:".

Each string below is one snippet of §4.3, typed from the spec with the SummEval wording of §4.4,
and the components are joined by the layouts of §4.2. Run from this folder:
    python3 make_goldens.py
The item (summeval_item.json) is one SummEval item (MIT), copied from ../shared/data/summeval.
"""
import json

it = json.load(open('summeval_item.json'))
doc, summ, crit = it['source'], it['output'], it['coherence_definition']
SOURCE_BLOCK = '[Article]\n' + doc
TARGET_BLOCK = '[The Start of the Summary]\n' + summ + '\n[The End of the Summary]'

# The MT-Bench origin: scale:5,examples:0,criteria:human,reference:none,cot:prefix,autocot:off,metrics:off,order:TEI
INSTRUCTION = ('[Instruction]\nPlease act as an impartial judge and evaluate the quality of the summary to the news '
               'article displayed below on its coherence. ')
REF1 = ''
DIALECTIC = ''
COT = ('Begin your evaluation by providing a short explanation. After providing your explanation, you must rate the '
       'summary on a scale of 1 to 5 by strictly following this format: "[[rating]]", for example: "Rating: [[5]]".')
RULE = ('Here are some rules of the evaluation:\n1. Your evaluation should consider the coherence of the summary. '
        + crit + '\n2. Be as objective as possible.\n')
AUTOCOT = ''
EXAMPLES = ''
METRICS = ''
REF2 = ''
TD = INSTRUCTION + REF1 + DIALECTIC + COT
ER = RULE + AUTOCOT
IC = EXAMPLES + '\n' + SOURCE_BLOCK + '\n' + METRICS + '\n' + REF2 + '\n' + TARGET_BLOCK
open('golden_origin_TEI.txt', 'w').write(TD + '\n\n' + ER + '\n' + IC)  # TEI: TD "\n\n" ER "\n" IC

# Every factor switched on: scale:10,examples:3,criteria:self,reference:self,cot:suffix,autocot:on,metrics:on,order:IET
# The auxiliary texts are invented for the test (all_on_inputs.json).
aux = {
    'self_criteria': 'coherence : The summary presents its facts in a logical order, each sentence following from '
                     'the one before.',
    'autocot': '1. Read the article.\n2. Read the summary and check how its sentences connect.\n'
               '3. Rate coherence from 1 to 10.',
    'metrics': '1. Does the summary keep the order of events of the article?\n'
               '2. Does each sentence follow from the one before?',
    'reference': 'Anderlecht teenager Evangelos Patoulidis is wanted by Manchester City; he turned down Barcelona at 12.',
}
INSTRUCTION = ('[Instruction]\nPlease act as an impartial judge and evaluate the quality of the summary to the news '
               'article displayed above on its coherence.')  # IC comes before TD: "above", no space after it
REF1 = 'You will be given the news article, the summary and a high-quality reference summary.'
COT = ('You must rate the summary on a scale of 1 to 10 first by strictly following this format: "[[rating]]", for '
       'example: "Rating: [[10]]". And then provide your explanation.')
RULE = ('Here are some rules of the evaluation:\n1. Your evaluation should consider the coherence of the summary. '
        + aux['self_criteria'] + '\n2. Be as objective as possible.\n')
AUTOCOT = '\nEvaluation Steps:\n' + aux['autocot'] + '\n'
# Human 1-5 ratings on the 1-10 scale, §4.5 ([code]: max*(h-1)/4, at least 1), two decimals:
# 2.333 -> 3.33, 3.667 -> 6.67, 5 -> 10. Examples are joined by a blank line (the spec leaves the joint open).
ratings = ['3.33', '6.67', '10']
examples = ['# Example %d:\n[Article]\n%s\n\n[The Start of the Summary]\n%s\n[The End of the Summary]\n\n[Rating]\n%s'
            % (n, doc, e['output'], r) for n, (e, r) in enumerate(zip(it['examples'], ratings), 1)]
EXAMPLES = ('\nHere are some examples and their corresponding ratings:\n' + '\n\n'.join(examples)
            + '\n\nFollowing these examples, evaluate the quality of the summary to the news article displayed below '
              'on its coherence:')
METRICS = ('\n[Questions about Summary]\nHere are some questions about the summary. You can do the evaluation based '
           'on thinking about all the questions.\n' + aux['metrics'] + '\n')
REF2 = '\n[The Start of Reference Summary]\n' + aux['reference'] + '\n[The End of Reference Summary]\n'
TD = INSTRUCTION + REF1 + COT
ER = RULE + AUTOCOT
IC = EXAMPLES + '\n' + SOURCE_BLOCK + '\n' + METRICS + '\n' + REF2 + '\n' + TARGET_BLOCK
open('golden_all_on_IET.txt', 'w').write(IC + '\n\n' + ER + '\n' + TD)  # IET: IC "\n\n" ER "\n" TD
json.dump(aux, open('all_on_inputs.json', 'w'), indent=1)
