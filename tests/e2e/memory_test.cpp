// Buffers: read/write/copy/fill, rectangular transfers, mapping, host-pointer
// semantics, sub-buffers and destructor callbacks.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "cl_test.hpp"

namespace fcltest {
namespace {

using Memory = CLTest;

std::vector<unsigned char> bytePattern(size_t n, unsigned seed) {
  std::vector<unsigned char> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = static_cast<unsigned char>((i * 131 + seed * 17 + (i >> 8)) & 0xFF);
  return v;
}

TEST_F(Memory, ReadWriteCopy) {
  const size_t n = 1 << 16;
  std::vector<unsigned char> src = bytePattern(n, 1);
  cl_mem a = buffer(n), b = buffer(n);
  write(a, src);
  std::vector<unsigned char> zero(n, 0);
  write(b, zero);
  ASSERT_CL(clEnqueueCopyBuffer(queue_, a, b, 1000, 3333, 20000, 0, nullptr, nullptr));
  std::vector<unsigned char> want = zero;
  std::memcpy(want.data() + 3333, src.data() + 1000, 20000);
  // Non-blocking read, then wait on its event.
  std::vector<unsigned char> got(n, 0xEE);
  cl_event ev = nullptr;
  ASSERT_CL(clEnqueueReadBuffer(queue_, b, CL_FALSE, 0, n, got.data(), 0, nullptr, &ev));
  keep(ev);
  ASSERT_CL(clWaitForEvents(1, &ev));
  EXPECT_EQ(got, want);
  // Partial reads and writes at offsets.
  std::vector<unsigned char> part = bytePattern(777, 9);
  ASSERT_CL(clEnqueueWriteBuffer(queue_, a, CL_TRUE, 4097, part.size(), part.data(), 0, nullptr,
                                 nullptr));
  std::vector<unsigned char> back(779);
  ASSERT_CL(
      clEnqueueReadBuffer(queue_, a, CL_TRUE, 4096, back.size(), back.data(), 0, nullptr, nullptr));
  EXPECT_EQ(back[0], src[4096]);
  EXPECT_TRUE(std::equal(part.begin(), part.end(), back.begin() + 1));
  EXPECT_EQ(back[778], src[4096 + 778]);
}

TEST_F(Memory, FillWithEveryPatternSize) {
  const size_t n = 4096;
  for (size_t ps : {1, 2, 4, 8, 16, 32, 64, 128}) {
    SCOPED_TRACE("pattern size " + std::to_string(ps));
    cl_mem m = buffer(n);
    std::vector<unsigned char> init(n, 0xAA);
    write(m, init);
    std::vector<unsigned char> pat = bytePattern(ps, static_cast<unsigned>(ps));
    const size_t off = ps * 3, size = ps * 5;
    ASSERT_CL(clEnqueueFillBuffer(queue_, m, pat.data(), ps, off, size, 0, nullptr, nullptr));
    std::vector<unsigned char> want = init;
    for (size_t i = 0; i < size; ++i)
      want[off + i] = pat[i % ps];
    EXPECT_EQ(read<unsigned char>(m, n), want);
  }
}

// Host model of a rectangular copy between two linear byte arrays.
void hostRect(const unsigned char *src, const size_t so[3], size_t srp, size_t ssp,
              unsigned char *dst, const size_t dor[3], size_t drp, size_t dsp,
              const size_t reg[3]) {
  for (size_t z = 0; z < reg[2]; ++z)
    for (size_t y = 0; y < reg[1]; ++y)
      std::memcpy(dst + (dor[2] + z) * dsp + (dor[1] + y) * drp + dor[0],
                  src + (so[2] + z) * ssp + (so[1] + y) * srp + so[0], reg[0]);
}

TEST_F(Memory, RectReadWriteCopy) {
  // Buffer viewed as 3D: row pitch 64, slice pitch 64*20 bytes, 6 slices.
  const size_t brp = 64, bsp = 64 * 20, bsize = bsp * 6;
  // Host side: row pitch 48, slice pitch 48*16.
  const size_t hrp = 48, hsp = 48 * 16, hsize = hsp * 5;
  std::vector<unsigned char> host = bytePattern(hsize, 3), dev_init = bytePattern(bsize, 4);
  cl_mem m = buffer(bsize);
  write(m, dev_init);
  std::vector<unsigned char> model = dev_init;

  const size_t borig[3] = {5, 3, 1}, horig[3] = {7, 2, 1}, region[3] = {30, 11, 4};
  ASSERT_CL(clEnqueueWriteBufferRect(queue_, m, CL_TRUE, borig, horig, region, brp, bsp, hrp, hsp,
                                     host.data(), 0, nullptr, nullptr));
  hostRect(host.data(), horig, hrp, hsp, model.data(), borig, brp, bsp, region);
  EXPECT_EQ(read<unsigned char>(m, bsize), model) << "clEnqueueWriteBufferRect";

  // Copy a rectangle within the device buffer to another buffer.
  cl_mem m2 = buffer(bsize);
  std::vector<unsigned char> model2(bsize, 0x5A);
  write(m2, model2);
  const size_t so[3] = {2, 1, 0}, dorg[3] = {10, 4, 2}, creg[3] = {40, 9, 3};
  ASSERT_CL(clEnqueueCopyBufferRect(queue_, m, m2, so, dorg, creg, brp, bsp, brp, bsp, 0, nullptr,
                                    nullptr));
  hostRect(model.data(), so, brp, bsp, model2.data(), dorg, brp, bsp, creg);
  EXPECT_EQ(read<unsigned char>(m2, bsize), model2) << "clEnqueueCopyBufferRect";

  // Read a rectangle back with zero pitches (computed from the region).
  const size_t rorig[3] = {9, 5, 2}, rreg[3] = {17, 6, 3}, zero[3] = {0, 0, 0};
  std::vector<unsigned char> out(17 * 6 * 3, 0), want(17 * 6 * 3, 0);
  ASSERT_CL(clEnqueueReadBufferRect(queue_, m2, CL_TRUE, rorig, zero, rreg, brp, bsp, 0, 0,
                                    out.data(), 0, nullptr, nullptr));
  hostRect(model2.data(), rorig, brp, bsp, want.data(), zero, 17, 17 * 6, rreg);
  EXPECT_EQ(out, want) << "clEnqueueReadBufferRect";
}

TEST_F(Memory, MapWriteThenReadBack) {
  const size_t n = 10000;
  cl_mem m = buffer(n * sizeof(cl_int));
  cl_int err = CL_SUCCESS;
  auto *p =
      static_cast<cl_int *>(clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                               0, n * sizeof(cl_int), 0, nullptr, nullptr, &err));
  ASSERT_CL(err);
  ASSERT_NE(p, nullptr);
  for (size_t i = 0; i < n; ++i)
    p[i] = static_cast<cl_int>(i * 3 - 7);
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, m, p, 0, nullptr, nullptr));
  // A kernel sees the mapped writes.
  cl_kernel k =
      kernelFrom("__kernel void inc(__global int* a) { a[get_global_id(0)] += 1; }", "inc");
  setArgs(k, m);
  run(k, {n});
  std::vector<cl_int> r = read<cl_int>(m, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(r[i], static_cast<cl_int>(i * 3 - 6));
  // Map a sub-range for reading.
  auto *q = static_cast<cl_int *>(clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_READ,
                                                     100 * sizeof(cl_int), 50 * sizeof(cl_int), 0,
                                                     nullptr, nullptr, &err));
  ASSERT_CL(err);
  for (size_t i = 0; i < 50; ++i)
    EXPECT_EQ(q[i], static_cast<cl_int>((100 + i) * 3 - 6));
  cl_uint maps = 0;
  ASSERT_CL(clGetMemObjectInfo(m, CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr));
  EXPECT_EQ(maps, 1u);
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, m, q, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_F(Memory, UseHostPtrIsZeroCopy) {
  const size_t n = 4096;
  void *raw = nullptr;
  ASSERT_EQ(posix_memalign(&raw, 4096, n * sizeof(cl_int)), 0);
  atTearDown([raw] { std::free(raw); });
  auto *host = static_cast<cl_int *>(raw);
  for (size_t i = 0; i < n; ++i)
    host[i] = static_cast<cl_int>(i);
  cl_mem m = buffer(n * sizeof(cl_int), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host);
  void *hp = nullptr;
  ASSERT_CL(clGetMemObjectInfo(m, CL_MEM_HOST_PTR, sizeof hp, &hp, nullptr));
  EXPECT_EQ(hp, host);
  cl_kernel k = kernelFrom(
      "__kernel void sq(__global int* a) { size_t i = get_global_id(0); a[i] = a[i] * a[i] + 1; }",
      "sq");
  setArgs(k, m);
  run(k, {n});
  cl_int err = CL_SUCCESS;
  void *mp =
      clEnqueueMapBuffer(queue_, m, CL_TRUE, CL_MAP_READ, 64, 128, 0, nullptr, nullptr, &err);
  ASSERT_CL(err);
  EXPECT_EQ(mp, static_cast<void *>(reinterpret_cast<char *>(host) + 64))
      << "map of a USE_HOST_PTR buffer must return a pointer derived from host_ptr";
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(host[i], static_cast<cl_int>(i * i + 1)) << "host array not updated at " << i;
  ASSERT_CL(clEnqueueUnmapMemObject(queue_, m, mp, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
}

TEST_F(Memory, CopyHostPtrSnapshotsTheHostData) {
  std::vector<cl_int> host = {1, 2, 3, 4};
  cl_mem m = bufferFrom(host);
  host[0] = 100; // must not affect the buffer
  EXPECT_EQ(read<cl_int>(m, 4), (std::vector<cl_int>{1, 2, 3, 4}));
  // ALLOC_HOST_PTR | COPY_HOST_PTR is also valid.
  cl_mem m2 = buffer(4 * sizeof(cl_int), CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR, host.data());
  EXPECT_EQ(read<cl_int>(m2, 4), (std::vector<cl_int>{100, 2, 3, 4}));
}

TEST_F(Memory, SubBuffers) {
  const size_t n = 4096;
  cl_uint align_bits = deviceInfo<cl_uint>(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
  const size_t align = align_bits / 8;
  ASSERT_GE(align, sizeof(cl_int));
  std::vector<cl_int> init(n);
  for (size_t i = 0; i < n; ++i)
    init[i] = static_cast<cl_int>(i);
  cl_mem parent = bufferFrom(init);
  const size_t origin = align * ((1000 * sizeof(cl_int) + align - 1) / align);
  const size_t count = 700;
  cl_buffer_region reg = {origin, count * sizeof(cl_int)};
  cl_int err = CL_SUCCESS;
  cl_mem sub =
      clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &reg, &err);
  ASSERT_CL(err);
  atTearDown([sub] { clReleaseMemObject(sub); });
  cl_mem assoc = nullptr;
  size_t off = 0, size = 0;
  ASSERT_CL(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof assoc, &assoc, nullptr));
  ASSERT_CL(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof off, &off, nullptr));
  ASSERT_CL(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof size, &size, nullptr));
  EXPECT_EQ(assoc, parent);
  EXPECT_EQ(off, origin);
  EXPECT_EQ(size, count * sizeof(cl_int));

  cl_kernel k = kernelFrom(
      "__kernel void neg(__global int* a) { size_t i = get_global_id(0); a[i] = -a[i] - 1; }",
      "neg");
  setArgs(k, sub);
  run(k, {count});
  std::vector<cl_int> r = read<cl_int>(parent, n);
  const size_t first = origin / sizeof(cl_int);
  for (size_t i = 0; i < n; ++i) {
    bool in = i >= first && i < first + count;
    ASSERT_EQ(r[i], in ? -static_cast<cl_int>(i) - 1 : static_cast<cl_int>(i)) << "index " << i;
  }
  // Reading through the sub-buffer starts at its origin.
  EXPECT_EQ(read<cl_int>(sub, 1, 5)[0], -static_cast<cl_int>(first + 5) - 1);

  if (align > sizeof(cl_int)) {
    cl_buffer_region bad = {origin + sizeof(cl_int), 16};
    cl_mem s2 =
        clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &bad, &err);
    if (s2)
      clReleaseMemObject(s2);
    EXPECT_EQ(s2, nullptr);
    EXPECT_CL_ERR(CL_MISALIGNED_SUB_BUFFER_OFFSET, err);
  }
}

std::atomic<int> g_destructor_order{0};

void CL_CALLBACK onDestroy(cl_mem, void *user) {
  auto *slot = static_cast<std::atomic<int> *>(user);
  slot->store(++g_destructor_order);
}

TEST_F(Memory, DestructorCallbacksFireOnReleaseInReverseOrder) {
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, 256, nullptr, &err);
  ASSERT_CL(err);
  std::atomic<int> first{0}, second{0};
  ASSERT_CL(clSetMemObjectDestructorCallback(m, onDestroy, &first));
  ASSERT_CL(clSetMemObjectDestructorCallback(m, onDestroy, &second));
  ASSERT_CL(clRetainMemObject(m));
  ASSERT_CL(clReleaseMemObject(m));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(first.load(), 0) << "callback fired while a reference was still held";
  ASSERT_CL(clReleaseMemObject(m));
  ASSERT_CL(clFinish(queue_));
  for (int i = 0; i < 500 && (first.load() == 0 || second.load() == 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_NE(first.load(), 0) << "destructor callback did not fire";
  ASSERT_NE(second.load(), 0) << "destructor callback did not fire";
  EXPECT_LT(second.load(), first.load()) << "callbacks must run in reverse registration order";
}

// A kernel argument does not keep its buffer alive (CTS api
// retain_mem_object_set_kernel_arg): releasing the buffer deletes it at once, callback
// and all. Enqueueing the kernel with the released buffer still set is refused (not a
// use after free), and a new buffer set in its place works; a buffer in use by an
// enqueued command lives until the command is done.
TEST_F(Memory, KernelArgumentsDoNotKeepBuffersAlive) {
  cl_kernel k =
      kernelFrom("__kernel void inc(__global int *d) { d[get_global_id(0)] += 1; }", "inc");
  cl_int err = CL_SUCCESS;
  cl_mem m = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), nullptr, &err);
  ASSERT_CL(err);
  std::atomic<int> deleted{0};
  ASSERT_CL(clSetMemObjectDestructorCallback(m, onDestroy, &deleted));
  ASSERT_CL(clSetKernelArg(k, 0, sizeof m, &m));
  ASSERT_CL(clReleaseMemObject(m));
  EXPECT_NE(deleted.load(), 0) << "the buffer set as an argument was not deleted on release";
  size_t global = 64;
  EXPECT_CL_ERR(CL_INVALID_KERNEL_ARGS, clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global,
                                                               nullptr, 0, nullptr, nullptr));
  cl_mem fresh = bufferFrom(std::vector<cl_int>(64, 41));
  setArgs(k, fresh);
  run(k, {64});
  EXPECT_EQ(read<cl_int>(fresh, 64), std::vector<cl_int>(64, 42));
  // Enqueued, then released: the command keeps it until it is done.
  cl_mem busy = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64 * sizeof(cl_int), nullptr, &err);
  ASSERT_CL(err);
  std::atomic<int> busyDeleted{0};
  ASSERT_CL(clSetMemObjectDestructorCallback(busy, onDestroy, &busyDeleted));
  cl_event gate = clCreateUserEvent(context_, &err);
  ASSERT_CL(err);
  setArgs(k, busy);
  ASSERT_CL(clEnqueueNDRangeKernel(queue_, k, 1, nullptr, &global, nullptr, 1, &gate, nullptr));
  ASSERT_CL(clReleaseMemObject(busy));
  EXPECT_EQ(busyDeleted.load(), 0) << "deleted while a queued command uses it";
  ASSERT_CL(clSetUserEventStatus(gate, CL_COMPLETE));
  ASSERT_CL(clFinish(queue_));
  clReleaseEvent(gate);
  for (int i = 0; i < 500 && busyDeleted.load() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_NE(busyDeleted.load(), 0) << "not deleted after its command completed";
}

// Shared virtual memory: coarse- and fine-grained buffers from clSVMAlloc, a linked
// list built on the host and walked by a kernel (pointers inside SVM), host pointers
// the kernel reaches through fine-grained system SVM, and the clEnqueueSVM* commands.
TEST_F(Memory, SharedVirtualMemory) {
  auto caps = deviceInfo<cl_device_svm_capabilities>(device_, CL_DEVICE_SVM_CAPABILITIES);
  if (!(caps & CL_DEVICE_SVM_COARSE_GRAIN_BUFFER))
    GTEST_SKIP() << "the device reports no SVM";
  struct Node {
    cl_int value;
    cl_int pad;
    Node *next;
  };
  cl_kernel k = kernelFrom(R"CLC(
    typedef struct Node { int value; int pad; __global struct Node* next; } Node;
    __kernel void walk(__global Node* head, __global int* sums, __global int* scratch) {
      int i = get_global_id(0), sum = 0;
      for (__global Node* n = head; n; n = n->next) sum += n->value * (i + 1);
      sums[i] = sum;
      scratch[i] += 1;
    })CLC",
                           "walk", "-cl-std=CL2.0");
  const int nodes = 10, items = 16;
  auto *list =
      static_cast<Node *>(clSVMAlloc(context_, CL_MEM_READ_WRITE, nodes * sizeof(Node), 0));
  ASSERT_NE(list, nullptr);
  auto *sums = static_cast<cl_int *>(clSVMAlloc(
      context_, CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, items * sizeof(cl_int), 64));
  ASSERT_NE(sums, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(sums) % 64, 0u);
  // Coarse-grained: the host writes between map and unmap.
  ASSERT_CL(clEnqueueSVMMap(queue_, CL_TRUE, CL_MAP_WRITE, list, nodes * sizeof(Node), 0, nullptr,
                            nullptr));
  for (int i = 0; i < nodes; ++i)
    list[i] = {i + 1, 0, i + 1 < nodes ? &list[i + 1] : nullptr};
  ASSERT_CL(clEnqueueSVMUnmap(queue_, list, 0, nullptr, nullptr));
  cl_int zero = 0;
  ASSERT_CL(clEnqueueSVMMemFill(queue_, sums, &zero, sizeof zero, items * sizeof(cl_int), 0,
                                nullptr, nullptr));
  std::vector<cl_int> host(items, 100); // fine-grained system SVM: a plain host array
  ASSERT_CL(clSetKernelArgSVMPointer(k, 0, list));
  ASSERT_CL(clSetKernelArgSVMPointer(k, 1, sums));
  ASSERT_CL(clSetKernelArgSVMPointer(k, 2, host.data()));
  run(k, {items});
  for (int i = 0; i < items; ++i) {
    EXPECT_EQ(sums[i], 55 * (i + 1)) << i;
    EXPECT_EQ(host[i], 101) << i;
  }
  // Copies between SVM allocations; overlap is refused.
  ASSERT_CL(clEnqueueSVMMemcpy(queue_, CL_TRUE, sums, &list[0].value, sizeof(cl_int), 0, nullptr,
                               nullptr));
  EXPECT_EQ(sums[0], 1);
  EXPECT_CL_ERR(CL_MEM_COPY_OVERLAP, clEnqueueSVMMemcpy(queue_, CL_TRUE, sums + 1, sums,
                                                        8 * sizeof(cl_int), 0, nullptr, nullptr));
  EXPECT_CL_ERR(CL_INVALID_VALUE,
                clEnqueueSVMMemFill(queue_, sums, &zero, 3, 12, 0, nullptr, nullptr));
  // A buffer on an SVM allocation says so.
  cl_int err = CL_SUCCESS;
  cl_mem b = clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, items * sizeof(cl_int), sums, &err);
  ASSERT_CL(err);
  cl_bool uses = CL_FALSE;
  ASSERT_CL(clGetMemObjectInfo(b, CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr));
  EXPECT_EQ(uses, static_cast<cl_bool>(CL_TRUE));
  clReleaseMemObject(b);
  // ... and may not be larger than the allocation.
  cl_mem big =
      clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, 2 * items * sizeof(cl_int), sums, &err);
  EXPECT_CL_ERR(CL_INVALID_BUFFER_SIZE, err);
  if (big)
    clReleaseMemObject(big);
  // clEnqueueSVMFree calls the application's function once the queue gets there.
  struct Freed {
    cl_uint count = 0;
    void *first = nullptr;
  } freed;
  void *toFree[] = {list};
  ASSERT_CL(clEnqueueSVMFree(
      queue_, 1, toFree,
      [](cl_command_queue, cl_uint n, void *ptrs[], void *user) {
        auto *f = static_cast<Freed *>(user);
        f->count = n;
        f->first = ptrs[0];
      },
      &freed, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  EXPECT_EQ(freed.count, 1u);
  EXPECT_EQ(freed.first, static_cast<void *>(list));
  clSVMFree(context_, list);
  void *sumsPtr[] = {sums};
  ASSERT_CL(clEnqueueSVMFree(queue_, 1, sumsPtr, nullptr, nullptr, 0, nullptr, nullptr));
  ASSERT_CL(clFinish(queue_));
  // Invalid requests get NULL.
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 0, 0), nullptr);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE, 64, 3), nullptr);
  EXPECT_EQ(clSVMAlloc(context_, CL_MEM_READ_WRITE | CL_MEM_SVM_ATOMICS, 64, 0), nullptr);
}

} // namespace
} // namespace fcltest
