#include "fibercl/kernel_abi.h"
#include <stdint.h>
#include <stdio.h>
static fcl_group_ctx ctx;
static unsigned lid[3];
static int barriers;
unsigned __fibercl_local_id(unsigned d) { return d < 3 ? lid[d] : 0; }
const fcl_group_ctx *__fibercl_ctx(void) { return &ctx; }
void __fibercl_barrier(unsigned f) { ++barriers; }
void t_workitem(uint64_t *);
int t_atomics(int *, long *, float *, int *, unsigned long *, float *, int *);
int t_async(float *, float *);
int main(void) {
  int fails = 0;
  for (int wd = 1; wd <= 3; ++wd) {
    fcl_group_ctx c = {{7, 8, 9}, {64, 30, 12}, {16, 10, 4}, {16, 10, 4}, {4, 3, 3},
                       {2, 1, 2}, (uint32_t)wd, 0,           0,           0};
    ctx = c;
    lid[0] = 5;
    lid[1] = wd >= 2 ? 3 : 0;
    lid[2] = wd >= 3 ? 1 : 0;
    uint64_t o[64] = {0};
    t_workitem(o);
    int i = 0;
    fails += o[i++] != (uint64_t)wd;
    uint64_t gid[3];
    for (unsigned d = 0; d < 4; ++d) {
      int v = d < (unsigned)wd;
      uint64_t want[8] = {v ? c.global_size[d] : 1,
                          v ? c.group_id[d] * c.enqueued_local_size[d] + lid[d] + c.global_offset[d]
                            : 0,
                          v ? c.local_size[d] : 1,
                          v ? c.enqueued_local_size[d] : 1,
                          v ? lid[d] : 0,
                          v ? c.num_groups[d] : 1,
                          v ? c.group_id[d] : 0,
                          v ? c.global_offset[d] : 0};
      if (d < 3)
        gid[d] = want[1];
      for (int k = 0; k < 8; ++k, ++i)
        if (o[i] != want[k]) {
          printf("  work_dim %d dim %u item %d: got %llu want %llu\n", wd, d, k,
                 (unsigned long long)o[i], (unsigned long long)want[k]);
          ++fails;
        }
    }
    uint64_t gs1 = wd >= 2 ? c.global_size[1] : 1, gs0 = c.global_size[0];
    uint64_t lin = (wd >= 3 ? (gid[2] - c.global_offset[2]) : 0) * gs1 * gs0 +
                   (wd >= 2 ? gid[1] - c.global_offset[1] : 0) * gs0 + gid[0] - c.global_offset[0];
    if (o[i] != lin) {
      printf("  global_linear_id: got %llu want %llu\n", (unsigned long long)o[i],
             (unsigned long long)lin);
      ++fails;
    }
    ++i;
    uint64_t llin = (uint64_t)lid[2] * (wd >= 2 ? c.local_size[1] : 1) * c.local_size[0] +
                    lid[1] * c.local_size[0] + lid[0];
    if (o[i] != llin) {
      printf("  local_linear_id: got %llu want %llu\n", (unsigned long long)o[i],
             (unsigned long long)llin);
      ++fails;
    }
    ++i;
    fails += o[i] != 0xabcdef;
  }
  int g;
  long gl;
  float gf;
  int ai;
  unsigned long aul;
  float af;
  int fl;
  int ab = t_atomics(&g, &gl, &gf, &ai, &aul, &af, &fl);
  if (ab)
    printf("  atomics: %d wrong\n", ab);
  fails += ab + (barriers != 2);
  /* async copy with a single work-item group (local size 1) */
  fcl_group_ctx c1 = {{0, 0, 0}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {0, 0, 0}, 1, 0, 0, 0};
  ctx = c1;
  lid[0] = lid[1] = lid[2] = 0;
  float gbuf[4 * 20], lbuf[4 * 8];
  for (int k = 0; k < 80; ++k)
    gbuf[k] = (float)k;
  int asb = t_async(gbuf, lbuf);
  if (asb)
    printf("  async copy: %d wrong\n", asb);
  fails += asb;
  printf("workitem/sync/atomics: %s (%d failures)\n", fails ? "FAIL" : "PASS", fails);
  return fails != 0;
}
