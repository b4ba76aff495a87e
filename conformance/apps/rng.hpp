// splitmix64: the only source of randomness of fibercl_apps. Every input is generated
// from a fixed seed, so every run checks the same inputs.
#pragma once

#include <cstdint>

namespace fibercl_apps {

struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint32_t u32() { return uint32_t(next() >> 32); }
  uint32_t below(uint32_t n) { return uint32_t((next() >> 32) * uint64_t(n) >> 32); }
  double unit() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

} // namespace fibercl_apps
