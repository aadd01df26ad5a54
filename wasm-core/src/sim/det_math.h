// Deterministic transcendental functions.
//
// glibc (native builds) and musl (Emscripten) compute log/exp/pow differently in the last bit,
// which would make a simulation diverge between the browser and the native build after the
// first random draw that goes through them. These versions use only IEEE-754 +, -, *, /,
// floor and exact bit manipulation, which every platform rounds identically (the core is built
// with -ffp-contract=off, so no fused multiply-adds), so each returns the same bits everywhere.
//
// Accuracy: Log and Exp within a few ulp; Log1p/Expm1 keep full relative accuracy near 0;
// Pow(x, y) = Exp(y * Log(x)) with relative error about |y * ln x| * 2^-52. Good for sampling
// and for theory curves; not a replacement for a correctly rounded libm.
#ifndef FAWNLAB_SIM_DET_MATH_H_
#define FAWNLAB_SIM_DET_MATH_H_

namespace fawnlab::sim::det {

// Natural logarithm. REQUIRES: x > 0 and finite (returns -inf for 0, NaN for x < 0).
double Log(double x);
// e^x; +inf above ~709.78, 0 below ~-745.13.
double Exp(double x);
// log(1 + x), accurate for tiny x. REQUIRES: x > -1.
double Log1p(double x);
// e^x - 1, accurate for tiny x.
double Expm1(double x);
// x^y for x >= 0 (0^y = 0 for y > 0, 1 for y == 0). REQUIRES: x >= 0.
double Pow(double x, double y);

}  // namespace fawnlab::sim::det

#endif  // FAWNLAB_SIM_DET_MATH_H_
