// Exact rationals over BigInt (RRF-6, INTENT-9, TRI-3, BACKEND-28).
// A rational is {n: bigint, d: bigint} with d > 0.

const buf = new DataView(new ArrayBuffer(8));

// The exact value of a finite binary64, from its bits (sign, exponent, mantissa).
export function exactFloat(x) {
  if (!Number.isFinite(x)) throw new Error(`non-finite value ${x} has no exact value`);
  buf.setFloat64(0, x);
  const bits = buf.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const expBits = Number((bits >> 52n) & 0x7ffn);
  let mant = bits & 0xfffffffffffffn;
  let exp;
  if (expBits === 0) {
    exp = -1074; // subnormal (or zero)
  } else {
    mant |= 1n << 52n;
    exp = expBits - 1075;
  }
  let n = negative ? -mant : mant;
  let d = 1n;
  if (exp >= 0) n <<= BigInt(exp);
  else d <<= BigInt(-exp);
  return reduce({ n, d });
}

function gcd(a, b) {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

export function reduce(r) {
  if (r.n === 0n) return { n: 0n, d: 1n };
  const g = gcd(r.n, r.d);
  return g === 1n ? r : { n: r.n / g, d: r.d / g };
}

export function rat(n, d = 1n) {
  n = BigInt(n);
  d = BigInt(d);
  if (d === 0n) throw new Error('zero denominator');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  return reduce({ n, d });
}

export const ZERO = { n: 0n, d: 1n };
export const ONE = { n: 1n, d: 1n };

export function add(a, b) {
  return reduce({ n: a.n * b.d + b.n * a.d, d: a.d * b.d });
}

export function mul(a, b) {
  return reduce({ n: a.n * b.n, d: a.d * b.d });
}

export function div(a, b) {
  if (b.n === 0n) throw new Error('division by zero');
  return rat(a.n * b.d, a.d * b.n);
}

// Cross-multiplication: -1, 0, 1.
export function compare(a, b) {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
}
