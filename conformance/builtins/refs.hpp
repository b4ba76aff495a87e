// Host references for the math builtins, written once for both reference precisions:
// R = double for float results, R = long double (x87, 64-bit mantissa) for double
// results. Special values follow C99 Annex F.9 and the OpenCL C specification,
// section 7.5 (edge case behaviour).
#pragma once

#include <cfloat>
#include <climits>
#include <cmath>

namespace fclconf::ref {

template <class R> constexpr R kPi = static_cast<R>(3.141592653589793238462643383279502884L);

inline double exp10_(double x) { return ::exp10(x); }
inline long double exp10_(long double x) { return ::exp10l(x); }

// sinpi: reduce exactly to r in [0, 0.5] (fmod and Sterbenz subtractions are exact),
// then sin(pi * r): the product has relative error 2^-53 / 2^-64, so the result too.
template <class R> R sinpi(R x) {
  if (std::isnan(x) || std::isinf(x))
    return NAN;
  R r = std::fmod(std::fabs(x), R(2)); // [0, 2)
  bool neg = std::signbit(x);
  if (r >= 1) {
    r -= 1;
    neg = !neg;
  }
  if (r > R(0.5))
    r = 1 - r;
  if (r == 0)
    return std::copysign(R(0), x); // sinpi(+-n) = +-0
  R s = std::sin(kPi<R> * r);
  return neg ? -s : s;
}

template <class R> R cospi(R x) {
  if (std::isnan(x) || std::isinf(x))
    return NAN;
  R r = std::fmod(std::fabs(x), R(2)); // [0, 2)
  if (r > 1)
    r = 2 - r; // cos(pi r) = cos(pi (2 - r)), exact
  if (r <= R(0.25))
    return std::cos(kPi<R> * r);
  if (r < R(0.75))
    return std::sin(kPi<R> * (R(0.5) - r)) + R(0); // +0 at n + 0.5
  return -std::cos(kPi<R> * (1 - r));
}

template <class R> R tanpi(R x) {
  if (std::isnan(x) || std::isinf(x))
    return NAN;
  R r = std::fmod(x, R(1)); // (-1, 1), exact, sign of x
  if (r == 0) {
    // tanpi(n) = copysign(0, n) for even n, copysign(0, -n) for odd n
    bool odd = std::fmod(x, R(2)) != 0;
    return std::copysign(R(0), odd ? -x : x);
  }
  if (std::fabs(r) == R(0.5)) {
    // tanpi(n + 0.5) = +inf for even n, -inf for odd n
    R n = x - R(0.5);
    bool odd = std::fmod(n, R(2)) != 0;
    return odd ? -INFINITY : INFINITY;
  }
  if (r > R(0.5))
    r -= 1;
  if (r < R(-0.5))
    r += 1; // r in (-0.5, 0.5), tan period 1
  R a = std::fabs(r);
  R t;
  if (a <= R(0.25))
    t = std::tan(kPi<R> * a);
  else
    t = 1 / std::tan(kPi<R> * (R(0.5) - a)); // cot, 0.5 - a exact
  return r < 0 ? -t : t;
}

template <class R> R asinpi(R x) { return std::asin(x) / kPi<R>; }
template <class R> R acospi(R x) { return std::acos(x) / kPi<R>; }
template <class R> R atanpi(R x) {
  if (std::isinf(x))
    return std::copysign(R(0.5), x);
  return std::atan(x) / kPi<R>;
}
template <class R> R atan2pi(R y, R x) {
  if (std::isnan(x) || std::isnan(y))
    return NAN;
  if (std::isinf(y) && std::isinf(x))
    return std::copysign(std::signbit(x) ? R(0.75) : R(0.25), y);
  if (std::isinf(y))
    return std::copysign(R(0.5), y);
  if (y == 0)
    return std::signbit(x) ? std::copysign(R(1), y) : std::copysign(R(0), y);
  if (x == 0)
    return std::copysign(R(0.5), y);
  if (std::isinf(x))
    return std::signbit(x) ? std::copysign(R(1), y) : std::copysign(R(0), y);
  return std::atan2(y, x) / kPi<R>;
}

template <class R> R rsqrt(R x) { return 1 / std::sqrt(x); }

template <class R> R maxmag(R x, R y) {
  if (std::fabs(x) > std::fabs(y))
    return x;
  if (std::fabs(y) > std::fabs(x))
    return y;
  return std::fmax(x, y);
}
template <class R> R minmag(R x, R y) {
  if (std::fabs(x) < std::fabs(y))
    return x;
  if (std::fabs(y) < std::fabs(x))
    return y;
  return std::fmin(x, y);
}
template <class R> R fdim(R x, R y) {
  if (std::isnan(x) || std::isnan(y))
    return NAN;
  return x > y ? x - y : R(0);
}

// powr: x^y for x >= 0 with the special cases of s7.5.1.
template <class R> R powr(R x, R y) {
  if (std::isnan(x) || std::isnan(y) || x < 0)
    return NAN;
  if (x == 0) {
    if (y == 0)
      return NAN;
    return y < 0 ? R(INFINITY) : R(0);
  }
  if (std::isinf(x)) {
    if (y == 0)
      return NAN;
    return y < 0 ? R(0) : R(INFINITY);
  }
  if (x == 1)
    return std::isinf(y) ? R(NAN) : R(1);
  if (y == 0)
    return 1;
  return std::pow(x, y);
}

template <class R> R pown(R x, R n) {
  return std::pow(x, n);
} // n integral: C99 pow's rules are pown's

// rootn with the special cases of s7.5.1, refined by a Newton step (1/n is rounded).
template <class R> R rootn(R x, R nr) {
  long long n = static_cast<long long>(nr);
  if (std::isnan(x) || n == 0)
    return NAN;
  bool odd = (n % 2) != 0;
  if (x < 0 && !odd)
    return NAN;
  if (x == 0) {
    if (n < 0)
      return odd ? std::copysign(R(INFINITY), x) : R(INFINITY);
    return odd ? x : R(0);
  }
  if (std::isinf(x)) {
    R m = n < 0 ? R(0) : R(INFINITY);
    return x < 0 ? -m : m;
  }
  R ax = std::fabs(x);
  R r = std::pow(ax, 1 / nr);
  if (std::isfinite(r) && r != 0) {
    // r <- r - r (r^n / ax - 1) / n, with r^n / ax computed as exp(n log(r) - log(ax))
    R q = std::exp(nr * std::log(r) - std::log(ax));
    R rn = r - r * (q - 1) / nr;
    if (std::isfinite(rn) && rn > 0)
      r = rn;
  }
  return x < 0 ? -r : r;
}

template <class R> R logb(R x) { return std::logb(x); }

// lgamma sign (for lgamma_r's *signp): gamma(x) < 0 for x in (-1, 0), (-3, -2) ...
template <class R> int gammaSign(R x) {
  if (x > 0)
    return 1;
  R f = std::floor(x);
  return std::fmod(f, R(2)) != 0 ? -1 : 1;
}

} // namespace fclconf::ref
