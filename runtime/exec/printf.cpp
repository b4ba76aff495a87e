// OpenCL C printf: conversions d i o u x X c s p f F e E g G a A, flags, width,
// precision, length modifiers hh h l (l is 64-bit, as OpenCL C long), and the vector
// specifier vN (N = 2, 3, 4, 8, 16) with hh/h/hl/l element sizes.
#include "runtime/exec/printf.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

namespace fibercl::exec {
namespace {

// va_list is an array type on x86-64; wrap it so it can be passed by reference.
struct VaArgs {
  va_list ap;
};

enum class Len { None, HH, H, HL, L };

struct Spec {
  char flags[8] = {};
  int width = -1;
  int precision = -1;
  int vec = 0; // 0 = scalar
  Len len = Len::None;
  char conv = 0;
};

float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000) << 16;
  uint32_t exp = (h >> 10) & 0x1f;
  uint32_t mant = h & 0x3ff;
  uint32_t bits;
  if (exp == 0) {
    if (mant == 0) {
      bits = sign;
    } else { // subnormal: renormalise
      exp = 127 - 15 + 1;
      while (!(mant & 0x400)) {
        mant <<= 1;
        --exp;
      }
      mant &= 0x3ff;
      bits = sign | (exp << 23) | (mant << 13);
    }
  } else if (exp == 31) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else {
    bits = sign | ((exp + 127 - 15) << 23) | (mant << 13);
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Builds the host printf spec for one element: %[flags][width][.precision]<len><conv>.
void hostSpec(char *buf, size_t size, const Spec &s, const char *len, char conv) {
  char w[16] = "", p[16] = "";
  if (s.width >= 0)
    std::snprintf(w, sizeof w, "%d", s.width);
  if (s.precision >= 0)
    std::snprintf(p, sizeof p, ".%d", s.precision);
  std::snprintf(buf, size, "%%%s%s%s%s%c", s.flags, w, p, len, conv);
}

template <typename T> void append(std::string &out, const char *spec, T value) {
  char buf[256];
  int n = std::snprintf(buf, sizeof buf, spec, value);
  if (n < 0)
    return;
  if (size_t(n) < sizeof buf) {
    out.append(buf, size_t(n));
    return;
  }
  size_t at = out.size();
  out.resize(at + size_t(n) + 1);
  std::snprintf(&out[at], size_t(n) + 1, spec, value);
  out.resize(at + size_t(n));
}

bool isIntConv(char c) {
  return c == 'd' || c == 'i' || c == 'o' || c == 'u' || c == 'x' || c == 'X';
}
bool isFloatConv(char c) { return std::strchr("fFeEgGaA", c) != nullptr; }

void appendInt(std::string &out, const Spec &s, uint64_t raw, int bits) {
  char spec[64];
  bool isSigned = s.conv == 'd' || s.conv == 'i';
  hostSpec(spec, sizeof spec, s, "ll", s.conv);
  if (isSigned) {
    long long v;
    switch (bits) {
    case 8: v = int8_t(raw); break;
    case 16: v = int16_t(raw); break;
    case 32: v = int32_t(raw); break;
    default: v = int64_t(raw); break;
    }
    append(out, spec, v);
  } else {
    unsigned long long v = bits == 64 ? raw : raw & ((1ull << bits) - 1);
    append(out, spec, v);
  }
}

void appendFloat(std::string &out, const Spec &s, double v) {
  char spec[64];
  hostSpec(spec, sizeof spec, s, "", s.conv);
  append(out, spec, v);
}

template <typename T, int N> void fetchVector(VaArgs &a, T *dst) {
  typedef T V __attribute__((vector_size(sizeof(T) * (N == 3 ? 4 : N))));
  V v = va_arg(a.ap, V);
  for (int i = 0; i < N; ++i)
    dst[i] = v[i];
}

template <typename T> bool fetchVectorN(VaArgs &a, int n, T *dst) {
  switch (n) {
  case 2: fetchVector<T, 2>(a, dst); return true;
  case 3: fetchVector<T, 3>(a, dst); return true;
  case 4: fetchVector<T, 4>(a, dst); return true;
  case 8: fetchVector<T, 8>(a, dst); return true;
  case 16: fetchVector<T, 16>(a, dst); return true;
  default: return false;
  }
}

bool formatVector(std::string &out, const Spec &s, VaArgs &a) {
  int n = s.vec;
  if (isIntConv(s.conv)) {
    uint64_t vals[16];
    int bits;
    bool ok;
    switch (s.len) {
    case Len::HH: {
      int8_t e[16];
      ok = fetchVectorN(a, n, e);
      for (int i = 0; ok && i < n; ++i)
        vals[i] = uint8_t(e[i]);
      bits = 8;
      break;
    }
    case Len::H: {
      int16_t e[16];
      ok = fetchVectorN(a, n, e);
      for (int i = 0; ok && i < n; ++i)
        vals[i] = uint16_t(e[i]);
      bits = 16;
      break;
    }
    case Len::L: {
      int64_t e[16];
      ok = fetchVectorN(a, n, e);
      for (int i = 0; ok && i < n; ++i)
        vals[i] = uint64_t(e[i]);
      bits = 64;
      break;
    }
    default: { // hl (and, leniently, no modifier): 32-bit
      int32_t e[16];
      ok = fetchVectorN(a, n, e);
      for (int i = 0; ok && i < n; ++i)
        vals[i] = uint32_t(e[i]);
      bits = 32;
      break;
    }
    }
    if (!ok)
      return false;
    for (int i = 0; i < n; ++i) {
      if (i)
        out += ',';
      appendInt(out, s, vals[i], bits);
    }
    return true;
  }
  if (isFloatConv(s.conv)) {
    double vals[16];
    bool ok;
    switch (s.len) {
    case Len::H: {
      uint16_t e[16];
      ok = fetchVectorN(a, n, e);
      for (int i = 0; ok && i < n; ++i)
        vals[i] = halfToFloat(e[i]);
      break;
    }
    case Len::L: {
      double e[16];
      ok = fetchVectorN(a, n, e);
      for (int i = 0; ok && i < n; ++i)
        vals[i] = e[i];
      break;
    }
    default: { // hl (and, leniently, no modifier): float
      float e[16];
      ok = fetchVectorN(a, n, e);
      for (int i = 0; ok && i < n; ++i)
        vals[i] = e[i];
      break;
    }
    }
    if (!ok)
      return false;
    for (int i = 0; i < n; ++i) {
      if (i)
        out += ',';
      appendFloat(out, s, vals[i]);
    }
    return true;
  }
  return false; // c, s, p have no vector form
}

bool formatScalar(std::string &out, const Spec &s, VaArgs &a) {
  if (isIntConv(s.conv)) {
    switch (s.len) {
    case Len::L:
      appendInt(out, s, uint64_t(va_arg(a.ap, long long)), 64);
      return true;
    case Len::HH:
      appendInt(out, s, uint64_t(unsigned(va_arg(a.ap, int))), 8);
      return true;
    case Len::H:
      appendInt(out, s, uint64_t(unsigned(va_arg(a.ap, int))), 16);
      return true;
    case Len::None:
      appendInt(out, s, uint64_t(unsigned(va_arg(a.ap, int))), 32);
      return true;
    default:
      return false; // hl requires a vector
    }
  }
  if (isFloatConv(s.conv)) {
    if (s.len == Len::HH || s.len == Len::HL)
      return false;
    appendFloat(out, s, va_arg(a.ap, double));
    return true;
  }
  char spec[64];
  switch (s.conv) {
  case 'c':
    if (s.len != Len::None)
      return false;
    hostSpec(spec, sizeof spec, s, "", 'c');
    append(out, spec, va_arg(a.ap, int));
    return true;
  case 's': {
    if (s.len != Len::None)
      return false;
    const char *str = va_arg(a.ap, const char *);
    hostSpec(spec, sizeof spec, s, "", 's');
    append(out, spec, str ? str : "(null)");
    return true;
  }
  case 'p':
    if (s.len != Len::None)
      return false;
    hostSpec(spec, sizeof spec, s, "", 'p');
    append(out, spec, va_arg(a.ap, void *));
    return true;
  default:
    return false;
  }
}

bool parseNumber(const char *&p, int &value) {
  long v = 0;
  bool any = false;
  while (*p >= '0' && *p <= '9') {
    v = v * 10 + (*p++ - '0');
    if (v > 1000000)
      return false;
    any = true;
  }
  value = int(v);
  return any;
}

bool format(std::string &out, const char *p, VaArgs &a) {
  while (*p) {
    const char *pct = std::strchr(p, '%');
    if (!pct) {
      out.append(p);
      return true;
    }
    out.append(p, size_t(pct - p));
    p = pct + 1;
    if (*p == '%') {
      out += '%';
      ++p;
      continue;
    }
    Spec s;
    size_t nf = 0;
    while (std::strchr("-+ #0", *p) && *p) {
      if (nf + 1 < sizeof s.flags && !std::strchr(s.flags, *p))
        s.flags[nf++] = *p;
      ++p;
    }
    if (*p == '*') {
      ++p;
      s.width = va_arg(a.ap, int);
      if (s.width < 0) { // a negative width is a '-' flag
        s.width = -s.width;
        if (!std::strchr(s.flags, '-') && nf + 1 < sizeof s.flags)
          s.flags[nf++] = '-';
      }
    } else if (*p >= '0' && *p <= '9') {
      if (!parseNumber(p, s.width))
        return false;
    }
    if (*p == '.') {
      ++p;
      if (*p == '*') {
        ++p;
        s.precision = va_arg(a.ap, int);
        if (s.precision < 0)
          s.precision = -1;
      } else {
        s.precision = 0;
        if (*p >= '0' && *p <= '9' && !parseNumber(p, s.precision))
          return false;
      }
    }
    if (*p == 'v') {
      ++p;
      if (!parseNumber(p, s.vec))
        return false;
      if (s.vec != 2 && s.vec != 3 && s.vec != 4 && s.vec != 8 && s.vec != 16)
        return false;
    }
    if (p[0] == 'h' && p[1] == 'h') {
      s.len = Len::HH;
      p += 2;
    } else if (p[0] == 'h' && p[1] == 'l') {
      s.len = Len::HL;
      p += 2;
    } else if (p[0] == 'h') {
      s.len = Len::H;
      p += 1;
    } else if (p[0] == 'l') {
      s.len = Len::L;
      p += (p[1] == 'l') ? 2 : 1; // ll is not OpenCL C; accept it as 64-bit
    }
    s.conv = *p;
    if (!s.conv)
      return false;
    ++p;
    bool ok = s.vec ? formatVector(out, s, a) : formatScalar(out, s, a);
    if (!ok)
      return false;
  }
  return true;
}

} // namespace

bool formatOpenCL(std::string &out, const char *fmt, va_list ap) {
  if (!fmt)
    return false;
  VaArgs a;
  va_copy(a.ap, ap);
  bool ok = format(out, fmt, a);
  va_end(a.ap);
  return ok;
}

} // namespace fibercl::exec

extern "C" int __fibercl_printf(const char *fmt, ...) {
  std::string out;
  va_list ap;
  va_start(ap, fmt);
  bool ok;
  try {
    ok = fibercl::exec::formatOpenCL(out, fmt, ap);
  } catch (...) {
    ok = false;
  }
  va_end(ap);
  if (!ok)
    return -1;
  if (!out.empty() && std::fwrite(out.data(), 1, out.size(), stdout) != out.size())
    return -1;
  std::fflush(stdout);
  return 0;
}
