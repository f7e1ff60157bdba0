#!/usr/bin/env python3
"""Writes the net.pnml of the SNAKES fixtures with SNAKES itself.

    python3 tests/pnml/snakes-fixtures.py SNAKES-CHECKOUT

SNAKES-CHECKOUT is a copy of https://github.com/fpom/snakes (the files
here were written from version 0.9.33, commit 2291c6e, with Python
3.11).  Each fixture's net.pnml is what snakes.pnml.dumps() writes for
the net built below, unchanged; its "expected" or "error" file comes
from the reader (PN_REGEN=1 make check TESTS=tests/test_pnml, then read
the diff).
"""
import os
import sys

sys.path.insert(0, sys.argv[1])
from snakes.nets import (PetriNet, Place, Transition, Value, Variable,
                         Expression, MultiArc, Test, Inhibitor, Flush, dot,
                         tBlackToken)
from snakes.typing import OneOf, tNatural
from snakes.pnml import dumps

HERE = os.path.dirname(os.path.abspath(__file__))


def blacktokens():
    """Black tokens in every form SNAKES writes them: places of its default
    type (tAll, <type domain="universal"/>) and of OneOf(dot) hold
    multisets of <token/>, a place of tBlackToken a <text> count; arcs of
    black tokens are <text> weights, and test, inhibitor and flush arcs
    are SNAKES's own annotations."""
    n = PetriNet('buffer')
    n.add_place(Place('ready', [dot]))
    n.add_place(Place('buffer', [dot, dot]))
    n.add_place(Place('slots', [dot] * 3, OneOf(dot)))
    n.add_place(Place('done', [], tBlackToken))
    n.add_transition(Transition('produce'))
    n.add_input('ready', 'produce', Value(dot))
    n.add_input('slots', 'produce', Value(dot))
    n.add_input('done', 'produce', Inhibitor(MultiArc([Value(dot)] * 2)))
    n.add_output('buffer', 'produce', Value(dot))
    n.add_output('ready', 'produce', Value(dot))
    n.add_transition(Transition('consume'))
    n.add_input('buffer', 'consume', Value(dot))
    n.add_output('slots', 'consume', Value(dot))
    n.add_output('done', 'consume', MultiArc([Value(dot)] * 2))
    n.add_transition(Transition('stop'))
    n.add_input('buffer', 'stop', Inhibitor(Value(dot)))
    n.add_input('ready', 'stop', Test(Value(dot)))
    n.add_input('done', 'stop', Flush('d'))
    return n


def one(place, trans=None, arc=None, output=None):
    """A place, and a transition with an arc from (or to) it."""
    n = PetriNet('snk')
    n.add_place(place)
    if trans:
        n.add_transition(trans)
        if arc:
            n.add_input(place.name, trans.name, arc)
        if output:
            n.add_output(place.name, trans.name, output)
    return n


FIXTURES = {
    'valid/snakes-blacktokens': blacktokens(),
    # values other than black tokens: a high-level net
    'invalid/snakes-int-tokens': one(Place('p', [5, 5])),
    'invalid/snakes-int-place': one(Place('p', [], tNatural)),
    'invalid/snakes-tuple-tokens': one(Place('p', [(1, 'a')])),
    'invalid/snakes-int-arc': one(Place('p', [dot], tBlackToken),
                                  Transition('t'), Value(1)),
    'invalid/snakes-expression-arc': one(Place('p', [dot]), Transition('t'),
                                         Variable('x'), Expression('x+1')),
    'invalid/snakes-guard': one(Place('p', [dot]),
                                Transition('t', Expression('x==dot')),
                                Variable('x')),
    'invalid/snakes-inhibitor-condition': one(
        Place('p', [dot]), Transition('t'),
        Inhibitor(Variable('x'), Expression('x!=dot'))),
}

for path, net in FIXTURES.items():
    os.makedirs(os.path.join(HERE, path), exist_ok=True)
    with open(os.path.join(HERE, path, 'net.pnml'), 'w') as f:
        f.write(dumps(net))
