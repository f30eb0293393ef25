// node --test frontend/js/table/
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { handLayout } from './layout.js';

const SIZES = [
  [390, 240, 'portrait phone'],
  [360, 180, 'small phone'],
  [820, 110, 'landscape phone'],
  [1000, 220, 'desktop'],
];

test('every card keeps 44 px to tap and its middle uncovered, inside the box', () => {
  for (const [w, hgt, what] of SIZES) {
    for (let n = 1; n <= 8; n++) {
      const { rows, per, cw, step } = handLayout(n, w, hgt);
      const inRow = Math.min(n, per);
      assert.ok(cw >= 30, `${what} ${n}: card ${cw}`);
      assert.ok(cw + (inRow - 1) * step <= w, `${what} ${n}: row wider than the box`);
      assert.ok(cw * 1.4 * (1 + 0.56 * (rows - 1)) <= hgt + 1, `${what} ${n}: taller than the box`);
      if (inRow > 1) {
        assert.ok(step >= 44, `${what} ${n}: step ${step}`);
        assert.ok(step >= cw / 2, `${what} ${n}: middle covered`);
      }
    }
  }
});

test('the hand uses the width it has: bigger cards when there is room', () => {
  assert.ok(handLayout(8, 1000, 220).cw > handLayout(8, 390, 240).cw);
  assert.equal(handLayout(8, 360, 180).rows, 2);
  assert.equal(handLayout(8, 820, 110).rows, 1);
});
