// Where the cards of the own hand go: pure arithmetic, tested under node (layout.test.mjs).

const MIN_STEP = 44; // px of each card left visible to tap
const MAX_W = 118;
const GAP = 6;
export const ROW_SHIFT = 0.56; // a second row sits a little over half a card lower

/** Card width, step and rows for `n` cards in a box of `w` × `hgt` (pure; exported for tests). */
export function handLayout(n, w, hgt) {
  const fit = (rows) => {
    const per = Math.max(1, Math.ceil(n / rows));
    const byHeight = hgt / (1.4 * (1 + ROW_SHIFT * (rows - 1)));
    const side = (w - (per - 1) * GAP) / per;
    const overlapped = per > 1 ? w - (per - 1) * MIN_STEP : w;
    let cw = Math.max(30, Math.min(MAX_W, byHeight, Math.max(side, overlapped)));
    const stepOf = (c) => (per > 1 ? Math.min(c + GAP, (w - c) / (per - 1)) : 0);
    // Each card's middle stays uncovered (where a tap or a click lands first).
    while (per > 1 && cw > 30 && stepOf(cw) < cw / 2 + 4) cw -= 2;
    return { rows, per, cw: Math.floor(cw), step: Math.floor(stepOf(cw)) };
  };
  const one = fit(1);
  if (n <= 2) return one;
  const two = fit(2);
  return two.cw > one.cw * 1.15 ? two : one;
}
