#!/usr/bin/env python3
"""Replays "T1 compiled" at other floors (issue "A model that earns its place").

`tss eval --compiled --json` scores T1 with the kind of code chosen beside the
compiler's estimates (src/compiled/mod.rs: each kind's FP lanes per cycle of its
hottest loop, by llvm-mca) and keeps those estimates per instance. This takes
them from such a report (--estimates, matched by kernel and sizes) and replays
the choice on any `tss eval --json` reports of the same instances (--reports,
e.g. the leave-family-out folds' `scripts/leave_family_out.py --keep DIR`
reports, whose models never saw the instance's family): the best-scored config
among the kinds estimated at FLOOR or more of the best kind's lanes per cycle.
Prints the geometric-mean TN per FLOOR (0 is the model's own ranking;
src/compiled/mod.rs's FLOOR is what tss uses).

  scripts/compiled_cost.py --estimates seen.json --reports folds/*.json [--floors 0,0.5,0.6] [--per-kernel]

As in `tss eval`, T1 stays where the cache rule or the untiled gate chose it,
and a strided original is never taken. Nothing is timed.
"""
import argparse
import json
import math


def kind_of(estimates, tile):
    return estimates['kind_of'].get(tile, tile)


def first_by_kind(inst, est, floor):
    """TN of the best-scored config among kinds estimated at `floor` or more of
    the best kind's lanes per cycle; T1's own pick where the cache rule or the
    untiled gate made it."""
    s = inst['scores']
    gated = s['T1'].get('config') == 'untiled' and s.get('T1 network', s['T1']).get('config') != 'untiled'
    if inst['ruled'] or gated:
        return s['T1']['tn']
    demoted = inst['strided'] or (inst.get('recurrent', False) and not inst.get('threaded', False))
    cands = [c for c in inst['candidates'] if not (demoted and c[0] == 'untiled')]
    rate = est['rate']
    best = max([rate.get(kind_of(est, c[0]), 0.0) for c in cands])
    ok = [c for c in cands if rate.get(kind_of(est, c[0]), best) >= floor * best]
    return min(ok, key=lambda c: c[2])[1] / inst['best']


def geo(xs):
    return math.exp(sum(map(math.log, xs)) / len(xs))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--estimates', nargs='+', required=True, help='tss eval --compiled --json reports')
    ap.add_argument('--reports', nargs='+', required=True, help='tss eval --json reports to replay')
    ap.add_argument('--floors', default='0,0.25,0.4,0.5,0.6,0.75,0.9')
    ap.add_argument('--per-kernel', action='store_true')
    args = ap.parse_args()
    est = {}
    for path in args.estimates:
        for i in json.load(open(path))['instances']:
            if i.get('compiled'):
                est[(i['kernel'], i['sizes'])] = i['compiled']
    insts = [i for p in args.reports for i in json.load(open(p))['instances']]
    missing = [i for i in insts if (i['kernel'], i['sizes']) not in est]
    if missing:
        raise SystemExit(f'compiled_cost.py: no estimates for {len(missing)} instances, e.g. '
                         f'{missing[0]["kernel"]} {missing[0]["sizes"]}')
    floors = [float(w) for w in args.floors.split(',')]
    t1 = geo([i['scores']['T1']['tn'] for i in insts])
    print(f'{len(insts)} instances; the reports\' T1 {t1:.3f}; replayed pick per floor:')
    pick = lambda sel, w: geo([first_by_kind(i, est[(i['kernel'], i['sizes'])], w) for i in sel])
    print('  '.join(f'{w:g}: {pick(insts, w):.3f}' for w in floors))
    if args.per_kernel:
        for k in sorted({i['kernel'] for i in insts}):
            sel = [i for i in insts if i['kernel'] == k]
            print(f'{k:24s}' + '  '.join(f'{pick(sel, w):.2f}' for w in floors))


if __name__ == '__main__':
    main()
