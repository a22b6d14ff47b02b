// Growth checks (issue 29): time two input sizes and compare the ratio, never an absolute
// time. A linear step costs about `factor` times more on `factor` times the input, a quadratic
// one factor**2; the bound is 2 x factor. Each size keeps the fastest of a few repetitions
// (CPU time of this process), so a loaded machine slows both sides alike.
import assert from 'node:assert/strict';

// Fastest of `reps` runs, each of a fresh make(n): its set-up is not timed.
function fastest(make, n, reps) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    const run = make(n);
    const t0 = process.cpuUsage();
    run();
    const t = process.cpuUsage(t0);
    best = Math.min(best, t.user + t.system);
  }
  return best;
}

export function growthRatio(make, small, factor = 4, reps = 5) {
  const little = fastest(make, small, reps);
  const large = fastest(make, factor * small, reps);
  return large / Math.max(little, 100);
}

export function assertLinear(make, small, what, factor = 4) {
  const ratio = growthRatio(make, small, factor);
  assert.ok(ratio < 2 * factor, `${what}: ${factor}x the input took ${ratio.toFixed(1)}x the time`);
}
