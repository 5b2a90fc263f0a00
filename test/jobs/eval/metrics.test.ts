/**
 * Metric values on small sets computed by hand (each expectation is written
 * as the arithmetic that gives it).
 */
import { describe, expect, it } from 'vitest';
import {
  aggregate,
  EVAL_DEPTH,
  firstRelevantRank,
  ndcgAt,
  recallAt,
  reciprocalRank,
} from '../../../src/jobs/eval/metrics.js';

const L3 = 1 / Math.log2(3); // discount of rank 2
const L4 = 1 / Math.log2(4); // discount of rank 3 (= 0.5)

describe('recall@k', () => {
  it.each([
    // ranked, relevant, k, expected
    [['a', 'b', 'c'], ['b'], 1, 0],
    [['a', 'b', 'c'], ['b'], 2, 1],
    [['a', 'b', 'c'], ['b', 'c', 'z'], 3, 2 / 3],
    [['a', 'b', 'c'], ['b', 'c', 'z'], 10, 2 / 3],
    [[], ['a'], 5, 0],
    // a relevant tool listed twice in the labels counts once
    [['a'], ['a', 'a'], 1, 1],
    // a result repeated (select: keeps duplicates) counts once
    [['a', 'a', 'b'], ['a', 'b'], 2, 1 / 2],
  ] as const)('%j vs %j at %i = %f', (ranked, relevant, k, want) => {
    expect(recallAt(ranked, relevant, k)).toBeCloseTo(want, 12);
  });
});

describe('reciprocal rank', () => {
  it('is 1/rank of the first relevant result, 0 when none', () => {
    expect(reciprocalRank(['a', 'b', 'c'], ['c', 'b'])).toBe(1 / 2);
    expect(reciprocalRank(['a'], ['a'])).toBe(1);
    expect(reciprocalRank(['a', 'b'], ['z'])).toBe(0);
    expect(firstRelevantRank(['a', 'b', 'c'], ['c'])).toBe(3);
    expect(firstRelevantRank([], ['c'])).toBeNull();
  });
});

describe('nDCG@k (binary relevance)', () => {
  it.each([
    // one relevant at rank 1: ideal
    [['a', 'b'], ['a'], 5, 1],
    // one relevant at rank 2: (1/log2 3) / 1
    [['x', 'a'], ['a'], 5, L3],
    // two relevant at ranks 1 and 3: (1 + 1/log2 4) / (1 + 1/log2 3)
    [['a', 'x', 'b'], ['a', 'b'], 5, (1 + L4) / (1 + L3)],
    // relevant beyond k does not count: a at rank 6
    [['1', '2', '3', '4', '5', 'a'], ['a'], 5, 0],
    // more relevant tools than k: the ideal has k of them
    [['a', 'b'], ['a', 'b', 'c', 'd', 'e', 'f', 'g'], 2, 1],
    // a duplicate result counts at its first position only: (1) / (1 + 1/log2 3)
    [['a', 'a'], ['a', 'b'], 5, 1 / (1 + L3)],
  ] as const)('%j vs %j at %i', (ranked, relevant, k, want) => {
    expect(ndcgAt(ranked, relevant, k)).toBeCloseTo(want, 12);
  });
});

describe('aggregate over a query set', () => {
  it('means every metric over three hand-computed queries', () => {
    const m = aggregate([
      // q1: relevant b at rank 2 → R@1 0, R@3 1, R@5 1, R@10 1, RR 1/2, nDCG@5 1/log2(3)
      { ranked: ['a', 'b', 'c', 'd', 'e', 'f'], relevant: ['b'] },
      // q2: relevant y (rank 2) and z (absent) → R@1 0, R@3 1/2, R@5 1/2, R@10 1/2, RR 1/2,
      //     nDCG@5 (1/log2 3) / (1 + 1/log2 3)
      { ranked: ['x', 'y'], relevant: ['y', 'z'] },
      // q3: no result at all → everything 0, counts as "no result"
      { ranked: [], relevant: ['a'] },
    ]);
    expect(m.recall_at_1).toBe(0);
    expect(m.recall_at_3).toBeCloseTo((1 + 0.5 + 0) / 3, 12);
    expect(m.recall_at_5).toBeCloseTo(0.5, 12);
    expect(m.recall_at_10).toBeCloseTo(0.5, 12);
    expect(m.mrr).toBeCloseTo((0.5 + 0.5 + 0) / 3, 12);
    expect(m.ndcg_at_5).toBeCloseTo((L3 + L3 / (1 + L3)) / 3, 12);
    expect(m.no_result).toBeCloseTo(1 / 3, 12);
  });

  it('reads MRR within the evaluation depth only', () => {
    const ranked = Array.from({ length: EVAL_DEPTH }, (_, i) => `t${i}`).concat(['rel']);
    expect(aggregate([{ ranked, relevant: ['rel'] }]).mrr).toBe(0);
    expect(aggregate([{ ranked: ranked.slice(1), relevant: ['rel'] }]).mrr).toBe(1 / EVAL_DEPTH);
  });

  it('is all zeros for an empty set', () => {
    expect(Object.values(aggregate([]))).toEqual([0, 0, 0, 0, 0, 0, 0]);
  });
});
