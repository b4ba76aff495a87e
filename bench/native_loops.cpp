// Native reference loops (native_loops.hpp). Compiled with -O3 -march=native (see
// bench/CMakeLists.txt) so they use the SIMD FiberCL's JIT uses for kernels.
#include "native_loops.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include <boost/context/detail/fcontext.hpp>

namespace fibercl::bench {
namespace {

using Clock = std::chrono::steady_clock;

// Runs body(begin, end) over [0, n) split in `threads` contiguous slices, one per thread.
template <class Body> double timeSliced(size_t n, unsigned threads, Body body) {
  auto start = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t)
    pool.emplace_back([=] { body(n * t / threads, n * (t + 1) / threads); });
  body(0, n / threads);
  for (std::thread &th : pool)
    th.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace

double nativeStream(Stream kind, float *a, float *b, float *c, size_t n, unsigned threads) {
  switch (kind) {
  case Stream::Copy:
    return timeSliced(n, threads, [=](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i)
        b[i] = a[i];
    });
  case Stream::Scale:
    return timeSliced(n, threads, [=](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i)
        b[i] = 3.0f * a[i];
    });
  case Stream::Add:
    return timeSliced(n, threads, [=](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i)
        c[i] = a[i] + b[i];
    });
  case Stream::Saxpy:
    return timeSliced(n, threads, [=](size_t lo, size_t hi) {
      for (size_t i = lo; i < hi; ++i)
        b[i] = 0.5f * a[i] + b[i];
    });
  }
  return 0;
}

double nativeFmaGflops(unsigned threads, long iterations) {
  constexpr int kChains = 64; // independent chains: enough to hide the FMA latency
  std::vector<float> sink(threads);
  double seconds = timeSliced(threads, threads, [&](size_t lo, size_t hi) {
    for (size_t t = lo; t < hi; ++t) {
      float x[kChains];
      for (int j = 0; j < kChains; ++j)
        x[j] = 1.0f + j * 1e-3f;
      for (long i = 0; i < iterations; ++i)
        for (int j = 0; j < kChains; ++j)
          x[j] = __builtin_fmaf(x[j], 0.999999f, 1e-7f);
      float s = 0;
      for (int j = 0; j < kChains; ++j)
        s += x[j];
      sink[t] = s;
    }
  });
  volatile float keep = sink[0];
  (void)keep;
  return 2.0 * kChains * double(iterations) * threads / seconds * 1e-9;
}

double nativeFiberSwitchNs(long switches) {
  namespace bctx = boost::context::detail;
  std::vector<char> stack(64 * 1024);
  // The other context only switches back, for ever.
  auto partner = [](bctx::transfer_t t) {
    for (;;)
      t = bctx::jump_fcontext(t.fctx, nullptr);
  };
  bctx::fcontext_t other = bctx::make_fcontext(stack.data() + stack.size(), stack.size(), partner);
  auto start = Clock::now();
  for (long i = 0; i < switches / 2; ++i) // there and back: two switches
    other = bctx::jump_fcontext(other, nullptr).fctx;
  double ns = std::chrono::duration<double, std::nano>(Clock::now() - start).count();
  return ns / double(switches / 2 * 2);
}

double nativeLookbackScan(const unsigned *in, unsigned *out, size_t n, unsigned threads) {
  constexpr size_t kTile = 64;
  const size_t tiles = n / kTile;
  std::unique_ptr<std::atomic<unsigned>[]> status(new std::atomic<unsigned>[tiles]);
  for (size_t t = 0; t < tiles; ++t)
    status[t].store(0, std::memory_order_relaxed);
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t t; (t = next.fetch_add(1)) < tiles;) {
      unsigned data[kTile], sum = 0;
      for (size_t i = 0; i < kTile; ++i)
        data[i] = sum += in[t * kTile + i];
      unsigned prefix = 0;
      if (t == 0) {
        status[0].store((2u << 30) | sum, std::memory_order_release);
      } else {
        status[t].store((1u << 30) | sum, std::memory_order_release);
        for (size_t j = t - 1;;) {
          unsigned s = status[j].load(std::memory_order_acquire), flag = s >> 30;
          if (flag == 0)
            continue;
          prefix += s & 0x3fffffffu;
          if (flag == 2)
            break;
          --j;
        }
        status[t].store((2u << 30) | ((prefix + sum) & 0x3fffffffu), std::memory_order_release);
      }
      for (size_t i = 0; i < kTile; ++i)
        out[t * kTile + i] = data[i] + prefix;
    }
  };
  auto start = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned i = 1; i < threads; ++i)
    pool.emplace_back(work);
  work();
  for (std::thread &th : pool)
    th.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double nativeLabelSweeps(unsigned *a, unsigned *b, size_t n, unsigned sweeps, unsigned threads) {
  std::atomic<unsigned> arrived{0};
  auto work = [&](unsigned g) {
    size_t lo = n * g / threads, hi = n * (g + 1) / threads;
    for (unsigned s = 0; s < sweeps; ++s) {
      const unsigned *from = s % 2 ? b : a;
      unsigned *to = s % 2 ? a : b;
      for (size_t i = lo; i < hi; ++i) {
        unsigned v = from[i];
        if (i > 0)
          v = std::min(v, from[i - 1]);
        if (i + 1 < n)
          v = std::min(v, from[i + 1]);
        to[i] = v;
      }
      arrived.fetch_add(1);
      while (arrived.load() < (s + 1) * threads) {
      }
    }
  };
  auto start = Clock::now();
  std::vector<std::thread> pool;
  for (unsigned g = 1; g < threads; ++g)
    pool.emplace_back(work, g);
  work(0);
  for (std::thread &th : pool)
    th.join();
  return std::chrono::duration<double>(Clock::now() - start).count();
}

} // namespace fibercl::bench
