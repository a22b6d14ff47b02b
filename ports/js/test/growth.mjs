// Growth checks (issue 29): time two input sizes and compare the ratio, never an absolute
// time. A linear step costs about `factor` times more on `factor` times the input, n**1.5 costs
// factor**1.5 and a quadratic one factor**2; with factor 16 the bound of 3 x factor (48) sits
// between linear (16) and n**1.5 (64), far enough from both that a loaded machine's noise
// (measured up to 2.2 x factor on 2 shared cores) does not cross it. Each size keeps the fastest of a few repetitions
// (CPU time of this process), so a loaded machine slows both sides alike.
import assert from 'node:assert/strict';

// Fastest of `reps` batches, as CPU time per run; each run is of a fresh make(n), whose set-up is
// not timed. A batch repeats runs until it holds `minMicros` of CPU, so a step of a few
// microseconds is not measured at the clock's resolution or against one stray pause.
function fastest(make, n, reps, minMicros = 5000) {
  let best = Infinity;
  for (let r = 0; r < reps; r++) {
    let spent = 0;
    let runs = 0;
    while (runs === 0 || spent < minMicros) {
      const run = make(n);
      const t0 = process.cpuUsage();
      run();
      const t = process.cpuUsage(t0);
      spent += t.user + t.system;
      runs += 1;
    }
    best = Math.min(best, spent / runs);
  }
  return best;
}

export function growthRatio(make, small, factor = 16, reps = 5) {
  fastest(make, small, 1); // warm-up: the first runs pay for compilation, not for the input
  const little = fastest(make, small, reps);
  const large = fastest(make, factor * small, reps);
  return large / Math.max(little, 1);
}

export function assertLinear(make, small, what, factor = 16) {
  const ratio = growthRatio(make, small, factor);
  assert.ok(ratio < 3 * factor, `${what}: ${factor}x the input took ${ratio.toFixed(1)}x the time`);
}
