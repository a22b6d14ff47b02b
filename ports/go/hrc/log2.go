package hrc

// Correctly rounded log2 of small integers (METRIC-12).
//
// Go's math.Log2 is not correctly rounded: on every platform without an assembly version
// (amd64 and arm64 included) it is Log(frac)*(1/Ln2) + exp, two roundings plus the error of
// Log, and it is one unit in the last place off already at log2(3) (and at 28 of the integers
// 2..1001; see TestMathLog2IsNotCorrectlyRounded). So the discounts are computed here in
// math/big and rounded once.

import (
	"math/big"
	"sync"
)

// MaxDiscountArg is the largest i + 1 that METRIC-8 needs (k <= 1000).
const MaxDiscountArg = 1001

const log2Prec = 256

var (
	log2Mu    sync.Mutex
	log2Table [MaxDiscountArg + 1]float64 // 0: not computed yet (log2(1) = 0 needs no table)
)

// atanh2 returns 2*atanh(t) = ln((1+t)/(1-t)) for 0 <= t <= 1/3, to about prec bits.
func atanh2(t *big.Float, prec uint) *big.Float {
	nf := func() *big.Float { return new(big.Float).SetPrec(prec) }
	sum := nf()
	t2 := nf().Mul(t, t)
	pow := nf().Set(t)
	eps := nf().SetMantExp(nf().SetInt64(1), -int(prec)-16)
	for j := int64(0); ; j++ {
		term := nf().Quo(pow, nf().SetInt64(2*j+1))
		sum.Add(sum, term)
		if term.Cmp(eps) < 0 {
			break
		}
		pow.Mul(pow, t2)
	}
	return sum.Mul(sum, nf().SetInt64(2))
}

// Log2Big returns log2(n) for n >= 1 computed with prec bits and rounded once to binary64
// (round to nearest even). With prec = 256 the error is far below any binary64 rounding
// boundary for n <= 1001 (TestLog2BigStable compares prec 256 with prec 512).
func Log2Big(n int64, prec uint) float64 {
	nf := func() *big.Float { return new(big.Float).SetPrec(prec) }
	e := 0
	for int64(1)<<(e+1) <= n {
		e++
	}
	// n = 2^e * m, 1 <= m < 2; ln m = 2 atanh((m-1)/(m+1)) with (m-1)/(m+1) < 1/3.
	m := nf().Quo(nf().SetInt64(n), nf().SetInt64(int64(1)<<e))
	one := nf().SetInt64(1)
	t := nf().Quo(nf().Sub(m, one), nf().Add(m, one))
	ln2 := atanh2(nf().Quo(one, nf().SetInt64(3)), prec)
	r := nf().Quo(atanh2(t, prec), ln2)
	r.Add(r, nf().SetInt64(int64(e)))
	f, _ := r.Float64()
	return f
}

// Log2Int is the correctly rounded binary64 log2 of n, 1 <= n <= MaxDiscountArg.
// Each value is computed on first use (a few hundred microseconds) and kept.
func Log2Int(n int) float64 {
	if n == 1 {
		return 0
	}
	log2Mu.Lock()
	defer log2Mu.Unlock()
	if log2Table[n] == 0 {
		log2Table[n] = Log2Big(int64(n), log2Prec)
	}
	return log2Table[n]
}
