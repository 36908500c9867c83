#!/usr/bin/env python3
"""Turn tests/data/reference.json (numpy-computed vectors) into a C header for the unit tests.

The numbers are never copied by hand: the build runs this script on the committed JSON.
Usage: gen_reference.py reference.json out.h
"""
import json
import sys


def c_ident(name):
    return ''.join(ch if ch.isalnum() else '_' for ch in name)


def arr(values):
    return '{' + ', '.join(repr(float(v)) if v == v else 'NAN' for v in values) + '}'


def main():
    src, dst = sys.argv[1], sys.argv[2]
    with open(src, encoding='utf-8') as f:
        ref = json.load(f)
    out = ['/* Generated from reference.json by gen_reference.py: do not edit. */',
           '#ifndef LLMM_REFERENCE_DATA_H', '#define LLMM_REFERENCE_DATA_H', '#include <stddef.h>',
           '#include <math.h>', '',
           'typedef struct { const char *name; unsigned degree; size_t n; const double *x;',
           '  const double *y; const double *coeffs; double rss; int coeffs_are_residual; double rss_exact; } ref_polyfit;',
           '/* coeffs_are_residual: numpy\'s coefficients are not the optimum there; compare the residual',
           '   sum of squares with rss_exact (the exact least-squares optimum) instead. */',
           'typedef struct { unsigned degree; const double *coeffs; size_t nroots; const double *roots; } ref_roots;',
           'typedef struct { const char *name; size_t n; const double *values; size_t nq;',
           '  const double *q; const double *exact; } ref_quantiles;', '']
    for i, p in enumerate(ref['polyfit']):
        out.append('static const double ref_pf%d_x[] = %s;' % (i, arr(p['x'])))
        out.append('static const double ref_pf%d_y[] = %s;' % (i, arr(p['y'])))
        out.append('static const double ref_pf%d_c[] = %s;' % (i, arr(p['coeffs'])))
    out.append('static const ref_polyfit ref_polyfit_cases[] = {')
    for i, p in enumerate(ref['polyfit']):
        out.append('  {"%s", %d, %d, ref_pf%d_x, ref_pf%d_y, ref_pf%d_c, %r, %d, %r},' % (
            p['name'], p['degree'], len(p['x']), i, i, i, float(p['rss']),
            1 if p.get('compare') == 'residual' else 0, float(p.get('rss_exact', p['rss']))))
    out.append('};')
    out.append('#define REF_POLYFIT_COUNT %d' % len(ref['polyfit']))
    for i, r in enumerate(ref['roots']):
        out.append('static const double ref_rt%d_c[] = %s;' % (i, arr(r['coeffs'])))
        out.append('static const double ref_rt%d_r[] = %s;' % (i, arr(r['real_roots'] or [0.0])))
    out.append('static const ref_roots ref_roots_cases[] = {')
    for i, r in enumerate(ref['roots']):
        out.append('  {%d, ref_rt%d_c, %d, ref_rt%d_r},' % (len(r['coeffs']) - 1, i,
                                                          len(r['real_roots']), i))
    out.append('};')
    out.append('#define REF_ROOTS_COUNT %d' % len(ref['roots']))
    for i, q in enumerate(ref['quantiles']):
        out.append('static const double ref_q%d_v[] = %s;' % (i, arr(q['values'])))
        out.append('static const double ref_q%d_q[] = %s;' % (i, arr(q['q'])))
        out.append('static const double ref_q%d_e[] = %s;' % (i, arr(q['exact_nearest_rank'])))
    out.append('static const ref_quantiles ref_quantile_cases[] = {')
    for i, q in enumerate(ref['quantiles']):
        out.append('  {"%s", %d, ref_q%d_v, %d, ref_q%d_q, ref_q%d_e},' % (
            q['name'], len(q['values']), i, len(q['q']), i, i))
    out.append('};')
    out.append('#define REF_QUANTILES_COUNT %d' % len(ref['quantiles']))
    out.append('#endif')
    with open(dst, 'w', encoding='utf-8') as f:
        f.write('\n'.join(out) + '\n')


if __name__ == '__main__':
    main()
