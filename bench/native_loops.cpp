// Native reference loops (native_loops.hpp). Compiled with -O3 -march=native (see
// bench/CMakeLists.txt) so they use the SIMD FiberCL's JIT uses for kernels.
#include "native_loops.hpp"

#include <chrono>
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

} // namespace fibercl::bench
