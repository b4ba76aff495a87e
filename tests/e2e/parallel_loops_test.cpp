// Work-item loops declared parallel to LLVM's loop vectoriser
// (compiler/src/passes/parallel_work_item_loops.cpp): kernels whose accesses the
// vectoriser cannot bound (scatters and gathers through an index buffer, local tiles)
// are vectorised across work-items, and the dependences FiberCL itself creates between
// work-items -- a private array shared by the iterations, atomics on __local memory
// made plain, yield-point counters -- keep their loops serial. Kernels computing in
// small vectors (int4, float2: compiler/src/passes/small_vectors.cpp) are widened across
// work-items too. Every kernel is checked element by element against the host, on
// partial vectors too.
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "cl_test.hpp"

namespace fcltest {
namespace {

class ParallelLoops : public CLTest {};

constexpr size_t kN = 4160; // a multiple of every local size below
const std::vector<std::vector<size_t>> kLocalSizes = {{64}, {13}, {1}, {40}, {}};

// A permutation of 0..n-1 that scatters neighbours far apart.
std::vector<cl_uint> permutation(size_t n) {
  std::vector<cl_uint> p(n);
  for (size_t i = 0; i < n; ++i)
    p[i] = cl_uint((i * 2731 + 17) % n); // gcd(2731, n) = 1
  return p;
}

const char *kIndexed = R"CLC(
kernel void scatter(global const float* in, global const uint* perm, global float* out) {
  size_t i = get_global_id(0);
  out[perm[i]] = in[i] * 3.0f + 1.0f;
}
kernel void gather(global const float* in, global const uint* perm, global float* out) {
  size_t i = get_global_id(0);
  out[i] = in[perm[i]] - 2.0f;
}
// Each work-item reads back what it wrote itself: a dependence within an iteration.
kernel void own_write(global float* io, global const uint* perm) {
  size_t i = get_global_id(0);
  io[perm[i]] += 1.0f;
  io[perm[i]] = io[perm[i]] * 2.0f;
}
// A tile in local memory, read back transposed after a barrier (two regions).
kernel void tile_reverse(global const float* in, global float* out, local float* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tile[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = tile[n - 1 - l] + (float)l;
}
)CLC";

// Did FIBERCL_DEBUG=vectorize report kernel `name`'s work-item loop vectorised?
bool reportedVectorised(const std::string &said, const char *name) {
  const std::string wanted = std::string("__fibercl_wg_") + name + ": ";
  std::istringstream lines(said);
  for (std::string line; std::getline(lines, line);)
    if (line.find(wanted) != std::string::npos &&
        line.find("vectorized loop (vectorization width") != std::string::npos)
      return true;
  return false;
}

TEST_F(ParallelLoops, ScattersAndGathersAreVectorisedAcrossWorkItems) {
  SKIP_UNLESS_FIBERCL("FIBERCL_DEBUG=vectorize is FiberCL's");
  std::string said;
  cl_program p = buildReporting(kIndexed, "vectorize", said);
  for (const char *name : {"scatter", "gather"})
    EXPECT_TRUE(reportedVectorised(said, name))
        << name << ": its work-item loop was not vectorised:\n"
        << said;
  (void)p;
}

// Complex numbers in float2, colours in int4: LLVM's vectoriser refuses vector-typed
// values ("instruction return type cannot be vectorized"), so these loops ran one
// work-item at a time until their small vectors were made scalars.
const char *kSmallVectors = R"CLC(
kernel void complex_add(global const float2* a, global const float2* b, global float2* c) {
  size_t i = get_global_id(0);
  float2 x = a[i], y = b[i];
  c[i] = (float2)(x.x + y.y, x.y - y.x) + x;
}
kernel void blend(global const int4* a, global int4* out, local int4* tile) {
  size_t l = get_local_id(0), n = get_local_size(0);
  tile[l] = a[get_global_id(0)] * (int4)(1, 2, 3, 4);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = (tile[n - 1 - l] >> 1) + tile[l].wzyx;
}
)CLC";

TEST_F(ParallelLoops, SmallVectorsAreWidenedAcrossWorkItems) {
  if (isFiberCL()) {
    std::string said;
    buildReporting(kSmallVectors, "vectorize", said);
    // blend has a barrier: on the fibers path (FIBERCL_BARRIERS=fibers) its work-items
    // run one by one, with no work-item loop to vectorise.
    const char *fibers = std::getenv("FIBERCL_BARRIERS");
    bool regions = !(fibers && std::string(fibers) == "fibers");
    for (const char *name : {"complex_add", "blend"})
      if (regions || std::string(name) != "blend")
        EXPECT_TRUE(reportedVectorised(said, name))
            << name << ": its work-item loop was not vectorised:\n"
            << said;
  }
  cl_program p = build(kSmallVectors);
  cl_kernel add = kernel(p, "complex_add"), blend = kernel(p, "blend");
  std::vector<cl_float> a(2 * kN), b(2 * kN);
  std::vector<cl_int> v(4 * kN);
  for (size_t i = 0; i < 2 * kN; ++i) {
    a[i] = float(int(i % 613) - 300) * 0.5f;
    b[i] = float(int(i % 419) - 200) * 0.25f;
  }
  for (size_t i = 0; i < 4 * kN; ++i)
    v[i] = int(uint32_t(i * 2654435761u) >> 7) - (1 << 23);
  cl_mem A = bufferFrom(a), B = bufferFrom(b), C = buffer(2 * kN * sizeof(cl_float)),
         V = bufferFrom(v), out = buffer(4 * kN * sizeof(cl_int));
  for (const auto &local : kLocalSizes) {
    SCOPED_TRACE(local.empty() ? std::string("NULL local size")
                               : "local size " + std::to_string(local[0]));
    setArgs(add, A, B, C);
    run(add, {kN}, local);
    auto c = read<cl_float>(C, 2 * kN);
    for (size_t i = 0; i < kN; ++i) {
      ASSERT_EQ(c[2 * i], a[2 * i] + b[2 * i + 1] + a[2 * i]) << i;
      ASSERT_EQ(c[2 * i + 1], a[2 * i + 1] - b[2 * i] + a[2 * i + 1]) << i;
    }
    if (local.empty())
      continue; // blend's tile needs a known local size
    size_t n = local[0];
    setArgs(blend, V, out, Local{n * 4 * sizeof(cl_int)});
    run(blend, {kN}, local);
    auto o = read<cl_int>(out, 4 * kN);
    const int scale[4] = {1, 2, 3, 4};
    for (size_t i = 0; i < kN; ++i) {
      size_t g = i / n * n, l = i % n, mirror = g + (n - 1 - l);
      for (int k = 0; k < 4; ++k)
        ASSERT_EQ(o[4 * i + k],
                  ((v[4 * mirror + k] * scale[k]) >> 1) + v[4 * i + 3 - k] * scale[3 - k])
            << i << "." << k;
    }
  }
}

TEST_F(ParallelLoops, IndexedAccessesMatchTheHost) {
  cl_program p = build(kIndexed);
  std::vector<cl_float> in(kN);
  for (size_t i = 0; i < kN; ++i)
    in[i] = float(int(i % 977) - 400) * 0.25f;
  std::vector<cl_uint> perm = permutation(kN);
  cl_mem din = bufferFrom(in), dperm = bufferFrom(perm), dout = buffer(kN * sizeof(cl_float));
  cl_kernel scatter = kernel(p, "scatter"), gather = kernel(p, "gather"),
            ownWrite = kernel(p, "own_write"), tile = kernel(p, "tile_reverse");
  for (const auto &local : kLocalSizes) {
    SCOPED_TRACE("local size " + (local.empty() ? std::string("NULL") : std::to_string(local[0])));
    setArgs(scatter, din, dperm, dout);
    run(scatter, {kN}, local);
    std::vector<cl_float> got = read<cl_float>(dout, kN);
    for (size_t i = 0; i < kN; ++i)
      ASSERT_EQ(got[perm[i]], in[i] * 3.0f + 1.0f) << "scatter, item " << i;

    setArgs(gather, din, dperm, dout);
    run(gather, {kN}, local);
    got = read<cl_float>(dout, kN);
    for (size_t i = 0; i < kN; ++i)
      ASSERT_EQ(got[i], in[perm[i]] - 2.0f) << "gather, item " << i;

    write(dout, in);
    setArgs(ownWrite, dout, dperm);
    run(ownWrite, {kN}, local);
    got = read<cl_float>(dout, kN);
    for (size_t i = 0; i < kN; ++i)
      ASSERT_EQ(got[i], (in[i] + 1.0f) * 2.0f) << "own_write, element " << i;

    if (local.empty())
      continue; // the tile's size is the local size
    size_t n = local[0];
    setArgs(tile, din, dout, Local{n * sizeof(cl_float)});
    run(tile, {kN}, local);
    got = read<cl_float>(dout, kN);
    for (size_t i = 0; i < kN; ++i) {
      size_t group = i / n, l = i % n;
      ASSERT_EQ(got[i], in[group * n + (n - 1 - l)] + float(l)) << "tile_reverse, item " << i;
    }
  }
}

// Dependences between work-items that FiberCL's compiled form creates: the loops that
// carry them must stay serial.
const char *kSerial = R"CLC(
// A private array read at a computed index stays in memory: one copy for the whole
// work-group function, rewritten by every work-item.
kernel void private_table(global const int* in, global const uint* sel, global int* out) {
  size_t i = get_global_id(0);
  int t[16];
#pragma unroll
  for (int k = 0; k < 16; ++k) t[k] = in[i] * k;
  t[sel[i] & 15] = (int)i;
  out[i] = t[(sel[i] >> 4) & 15] + t[sel[i] & 15];
}
// Atomics on __local memory are plain read-modify-writes, one work-item after another.
kernel void local_histogram(global const uint* in, global uint* out, local uint* bins) {
  size_t l = get_local_id(0);
  if (l == 0)
    for (int b = 0; b < 16; ++b) bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_inc(&bins[in[get_global_id(0)] & 15]);
  atomic_add(&bins[(in[get_global_id(0)] >> 4) & 15], 2u);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0)
    for (int b = 0; b < 16; ++b) out[get_group_id(0) * 16 + b] = bins[b];
}
// The same with a loop per work-item and the group's bins merged by global atomics (a
// kernel with yield points: its barrier regions were once SIMD-widened across
// work-items, the __local increments colliding).
kernel void local_histogram_loop(global const uint* in, global uint* out, local uint* bins,
                                 int digits) {
  size_t l = get_local_id(0), n = get_local_size(0);
  for (size_t b = l; b < 16; b += n) bins[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < digits; ++k)
    atomic_inc(&bins[(in[get_global_id(0)] >> (4 * k)) & 15]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = l; b < 16; b += n)
    if (bins[b]) atomic_add(&out[b], bins[b]);
}
// Global atomics (yield points and their counters) beside ordinary stores.
kernel void global_counter(global const uint* in, global uint* out, global uint* count) {
  size_t i = get_global_id(0);
  out[i] = in[i] + 1;
  if (in[i] & 1) atomic_inc(count);
}
)CLC";

TEST_F(ParallelLoops, DependencesFiberCLCreatesBetweenWorkItemsAreKept) {
  cl_program p = build(kSerial);
  std::vector<cl_int> in(kN);
  std::vector<cl_uint> sel(kN), uin(kN);
  for (size_t i = 0; i < kN; ++i) {
    in[i] = int((i * 7919) % 1013) - 500;
    sel[i] = cl_uint((i * 37 + 11) % 256);
    uin[i] = cl_uint((i * 2654435761u) >> 7);
  }
  cl_mem din = bufferFrom(in), dsel = bufferFrom(sel), duin = bufferFrom(uin),
         dout = buffer(kN * sizeof(cl_int)), dcount = buffer(sizeof(cl_uint));
  cl_kernel table = kernel(p, "private_table"), hist = kernel(p, "local_histogram"),
            histLoop = kernel(p, "local_histogram_loop"), counter = kernel(p, "global_counter");
  for (const auto &local : kLocalSizes) {
    SCOPED_TRACE("local size " + (local.empty() ? std::string("NULL") : std::to_string(local[0])));
    setArgs(table, din, dsel, dout);
    run(table, {kN}, local);
    std::vector<cl_int> got = read<cl_int>(dout, kN);
    for (size_t i = 0; i < kN; ++i) {
      int t[16];
      for (int k = 0; k < 16; ++k)
        t[k] = in[i] * k;
      t[sel[i] & 15] = int(i);
      ASSERT_EQ(got[i], t[(sel[i] >> 4) & 15] + t[sel[i] & 15]) << "private_table, item " << i;
    }

    write(dcount, std::vector<cl_uint>{0});
    setArgs(counter, duin, dout, dcount);
    run(counter, {kN}, local);
    std::vector<cl_uint> ugot = read<cl_uint>(dout, kN);
    cl_uint odd = 0;
    for (size_t i = 0; i < kN; ++i) {
      ASSERT_EQ(ugot[i], uin[i] + 1) << "global_counter, item " << i;
      odd += uin[i] & 1;
    }
    EXPECT_EQ(read<cl_uint>(dcount, 1)[0], odd) << "global_counter's count";

    if (local.empty())
      continue; // the histogram is per group of a known size
    size_t n = local[0], groups = kN / n;
    cl_mem dbins = buffer(groups * 16 * sizeof(cl_uint));
    setArgs(hist, duin, dbins, Local{16 * sizeof(cl_uint)});
    run(hist, {kN}, local);
    std::vector<cl_uint> bins = read<cl_uint>(dbins, groups * 16);
    for (size_t g = 0; g < groups; ++g) {
      cl_uint want[16] = {};
      for (size_t i = g * n; i < (g + 1) * n; ++i) {
        want[uin[i] & 15] += 1;
        want[(uin[i] >> 4) & 15] += 2;
      }
      for (int b = 0; b < 16; ++b)
        ASSERT_EQ(bins[g * 16 + b], want[b]) << "local_histogram, group " << g << " bin " << b;
    }

    cl_mem dtotal = bufferFrom(std::vector<cl_uint>(16, 0));
    setArgs(histLoop, duin, dtotal, Local{16 * sizeof(cl_uint)}, cl_int(8));
    run(histLoop, {kN}, local);
    std::vector<cl_uint> total = read<cl_uint>(dtotal, 16);
    cl_uint want[16] = {};
    for (size_t i = 0; i < kN; ++i)
      for (int k = 0; k < 8; ++k)
        want[(uin[i] >> (4 * k)) & 15] += 1;
    for (int b = 0; b < 16; ++b)
      ASSERT_EQ(total[b], want[b]) << "local_histogram_loop, bin " << b;
  }
}

} // namespace
} // namespace fcltest

namespace fcltest {
namespace {

// Work done only by the work-items below (or above) a bound -- a reduction's tree step
// `if (lid < s)` -- splits the work-item loop where the condition changes
// (compiler/src/passes/work_item_range_split.cpp), so neither part needs masks. Every
// comparison form, signed and unsigned, with the index on either side and bounds
// below, inside and beyond the group, negative and extreme; the stores are guarded so
// that the conditions stay branches.
const char *kGuards = R"CLC(
// One kernel per condition (together, LLVM merges complementary ones into selects).
#define GUARD(name, cond)                                                   \
  kernel void name(global int* out, int b, uint ub) {                      \
    int l = get_local_id(0);                                                \
    uint ul = get_local_id(0);                                              \
    if (cond)                                                               \
      out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = l + 1; \
  }
GUARD(g0, ul < ub)
GUARD(g1, ul <= ub)
GUARD(g2, ul > ub)
GUARD(g3, ul >= ub)
GUARD(g4, l < b)
GUARD(g5, l <= b)
GUARD(g6, l > b)
GUARD(g7, l >= b)
GUARD(g8, b > l && ub != 3u)
GUARD(g9, (long)get_local_id(0) < (long)b || ub == 5u)
// The tree reduction of a work-group (power-of-two local sizes).
kernel void tree_sum(global const int* in, global int* out, local int* tmp) {
  uint lid = get_local_id(0);
  tmp[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) tmp[lid] += tmp[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = tmp[0];
}
)CLC";

TEST_F(ParallelLoops, GuardedWorkItemsRunTheirOwnPartOfTheLoop) {
  constexpr int kGuardKernels = 10;
  if (isFiberCL()) {
    std::string said;
    buildReporting(kGuards, "vectorize", said);
    for (int k = 0; k < kGuardKernels; ++k) {
      std::string name = "g" + std::to_string(k);
      // Located at the kernel's GUARD line (the macro's expansion).
      std::string at = ": /fibercl-input/<source>:" + std::to_string(11 + k) + ":";
      EXPECT_NE(said.find("__fibercl_wg_" + name + at), std::string::npos)
          << name << ": its loop was not split at the condition:\n"
          << said;
    }
    const char *fibers = std::getenv("FIBERCL_BARRIERS");
    if (!(fibers && std::string(fibers) == "fibers"))
      EXPECT_NE(said.find("__fibercl_wg_tree_sum: /fibercl-input/<source>:27:"), std::string::npos)
          << "the tree step was not split at `lid < s`:\n"
          << said;
  }
  cl_program p = build(kGuards);
  cl_kernel treeSum = kernel(p, "tree_sum");
  const cl_int kSentinel = -1;
  const std::vector<cl_int> signedBounds = {INT32_MIN, -5, -1, 0,  1,  3,   7,
                                            12,        13, 39, 40, 64, 100, INT32_MAX};
  const std::vector<cl_uint> unsignedBounds = {0, 1, 3, 5, 7, 12, 13, 40, 64, 1000, UINT32_MAX};
  // 1D with several local sizes, and 2D (x compared; y and z loops around it).
  const std::vector<std::pair<std::vector<size_t>, std::vector<size_t>>> shapes = {
      {{kN}, {64}}, {{kN}, {13}},        {{kN}, {1}},
      {{kN}, {40}}, {{64, 12}, {16, 4}}, {{39, 6}, {13, 3}}};
  for (int k = 0; k < kGuardKernels; ++k) {
    cl_kernel guard = kernel(p, ("g" + std::to_string(k)).c_str());
    for (const auto &[global, local] : shapes) {
      size_t items = global[0] * (global.size() > 1 ? global[1] : 1);
      cl_mem out = buffer(items * sizeof(cl_int));
      for (size_t j = 0; j < signedBounds.size(); ++j) {
        cl_int b = signedBounds[j];
        cl_uint ub = unsignedBounds[j % unsignedBounds.size()];
        SCOPED_TRACE("g" + std::to_string(k) + ", local size " + std::to_string(local[0]) + ", b " +
                     std::to_string(b) + ", ub " + std::to_string(ub));
        write(out, std::vector<cl_int>(items, kSentinel));
        setArgs(guard, out, b, ub);
        run(guard, global, local);
        std::vector<cl_int> got = read<cl_int>(out, items);
        for (size_t i = 0; i < items; ++i) {
          int64_t l = int64_t(i % global[0] % local[0]);
          uint64_t ul = uint64_t(l);
          const bool taken[kGuardKernels] = {ul<ub, ul <= ub, ul> ub, ul >= ub,
                                             l<b, l <= b, l> b,       l >= b,
                                             b > l && ub != 3u,       l < b || ub == 5u};
          ASSERT_EQ(got[i], taken[k] ? cl_int(l + 1) : kSentinel)
              << "work-item " << i << " (local id " << l << ")";
        }
      }
    }
  }
  for (size_t n : {1, 2, 16, 64, 256}) {
    SCOPED_TRACE("tree_sum, local size " + std::to_string(n));
    std::vector<cl_int> in(kN * 4);
    for (size_t i = 0; i < in.size(); ++i)
      in[i] = cl_int(uint32_t(i * 2654435761u) >> 20) - 2000;
    size_t total = in.size() / n * n, groups = total / n;
    cl_mem din = bufferFrom(in), dout = buffer(groups * sizeof(cl_int));
    setArgs(treeSum, din, dout, Local{n * sizeof(cl_int)});
    run(treeSum, {total}, {n});
    std::vector<cl_int> got = read<cl_int>(dout, groups);
    for (size_t g = 0; g < groups; ++g) {
      cl_int want = 0;
      for (size_t i = 0; i < n; ++i)
        want += in[g * n + i];
      ASSERT_EQ(got[g], want) << "group " << g;
    }
  }
}

} // namespace
} // namespace fcltest

namespace fcltest {
namespace {

// Stores in a loop inside the work-item loop, consecutive from one work-item to the
// next at each of its iterations: vector stores from the first work-item still in the
// loop. In `uneven` work-item 0 leaves first (after one iteration, work-item 2 after
// three), so the stores' address must not come from lane 0.
TEST_F(ParallelLoops, InnerLoopStoresOfWorkItemsThatLeaveAtDifferentTimes) {
  const char *src = R"CLC(
kernel void strided(global int* out, uint n) {
  size_t l = get_local_id(0), size = get_local_size(0), base = get_group_id(0) * n;
  for (size_t i = l; i < n; i += size)
    out[base + i] = (int)i + 1;
}
kernel void early(global int* out, global const uint* limit) {
  size_t l = get_local_id(0), size = get_local_size(0);
  for (size_t i = l; i < limit[l]; i += size)
    out[get_group_id(0) * 4 * size + i] = (int)i + 1;
}
kernel void uneven(global int* out) {
  size_t l = get_local_id(0), size = get_local_size(0);
  for (size_t k = 0; k <= l % 3; ++k)
    out[get_group_id(0) * size * 3 + l + k * size] = (int)(l * 10 + k);
}
)CLC";
  std::string said;
  cl_program p = isFiberCL() ? buildReporting(src, "vectorize", said) : build(src);
  // (FIBERCL_CHECK=weak's buffered global stores are calls: no vector loop to look at.)
  const char *checks = std::getenv("FIBERCL_CHECK");
  if (isFiberCL() && !(checks && std::string(checks).find("weak") != std::string::npos))
    for (const char *name : {"strided", "early", "uneven"})
      EXPECT_NE(
          said.find(std::string("__fibercl_wg_") + name + ": work-item loop masked-vectorised"),
          std::string::npos)
          << name << ":\n"
          << said;
  const size_t size = 64, groups = 3, n = 150;
  cl_kernel strided = kernel(p, "strided"), uneven = kernel(p, "uneven");
  cl_mem a = bufferFrom(std::vector<cl_int>(groups * n, -1));
  setArgs(strided, a, cl_uint(n));
  run(strided, {size * groups}, {size});
  std::vector<cl_int> got = read<cl_int>(a, groups * n);
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(got[i], cl_int(i % n + 1)) << i;
  // Work-item l stores below limit[l]: work-item 0 not at all, the others for 1 to 4
  // iterations, in no order.
  std::vector<cl_uint> limit(size);
  for (size_t l = 0; l < size; ++l)
    limit[l] = l == 0 ? 0 : cl_uint(l + size * (l * 7 % 4));
  cl_kernel early = kernel(p, "early");
  cl_mem e = bufferFrom(std::vector<cl_int>(groups * 4 * size, -1)), lim = bufferFrom(limit);
  setArgs(early, e, lim);
  run(early, {size * groups}, {size});
  got = read<cl_int>(e, groups * 4 * size);
  for (size_t g = 0; g < groups; ++g)
    for (size_t i = 0; i < 4 * size; ++i)
      ASSERT_EQ(got[g * 4 * size + i], i < limit[i % size] ? cl_int(i + 1) : -1)
          << "group " << g << ", element " << i;
  cl_mem b = bufferFrom(std::vector<cl_int>(groups * size * 3, -1));
  setArgs(uneven, b);
  run(uneven, {size * groups}, {size});
  got = read<cl_int>(b, groups * size * 3);
  for (size_t g = 0; g < groups; ++g)
    for (size_t k = 0; k < 3; ++k)
      for (size_t l = 0; l < size; ++l)
        ASSERT_EQ(got[g * size * 3 + k * size + l], k <= l % 3 ? cl_int(l * 10 + k) : -1)
            << "group " << g << ", work-item " << l << ", iteration " << k;
}

} // namespace
} // namespace fcltest
