/* Self-test: work-item functions against a fake group context, barriers,
 * fences, legacy and C11 atomics (single-threaded value semantics), async copy. */
void t_workitem(__global ulong *o) {
  uint i = 0;
  o[i++] = get_work_dim();
  for (uint d = 0; d < 4; ++d) {
    o[i++] = get_global_size(d); o[i++] = get_global_id(d); o[i++] = get_local_size(d);
    o[i++] = get_enqueued_local_size(d); o[i++] = get_local_id(d); o[i++] = get_num_groups(d);
    o[i++] = get_group_id(d); o[i++] = get_global_offset(d);
  }
  o[i++] = get_global_linear_id(); o[i++] = get_local_linear_id();
  o[i++] = 0xabcdef; /* end marker */
}
int t_atomics(volatile __global int *g, volatile __global long *gl, volatile __global float *gf,
              volatile __global atomic_int *ai, volatile __global atomic_ulong *aul,
              volatile __global atomic_float *af, volatile __global atomic_flag *fl) {
  int bad = 0;
  *g = 10;
  bad += atomic_add(g, 5) != 10; bad += atomic_sub(g, 3) != 15; bad += atomic_xchg(g, 7) != 12;
  bad += atomic_inc(g) != 7; bad += atomic_dec(g) != 8; bad += atomic_cmpxchg(g, 7, 100) != 7;
  bad += atomic_cmpxchg(g, 7, 200) != 100; bad += atomic_min(g, -5) != 100; bad += atomic_max(g, 3) != -5;
  bad += atomic_and(g, 6) != 3; bad += atomic_or(g, 8) != 2; bad += atomic_xor(g, 15) != 10; bad += *g != 5;
  bad += atomic_min((volatile __global uint *)g, 0xffffffffu) != 5u;
  bad += atomic_max((volatile __global uint *)g, 0xffffffffu) != 5u; bad += *g != -1;
  *gf = 1.5f; bad += atomic_xchg(gf, 2.5f) != 1.5f; bad += *gf != 2.5f;
  *gl = 1L << 40; bad += atom_add(gl, 1L) != 1L << 40; bad += atom_cmpxchg(gl, (1L << 40) + 1, 3L) != (1L << 40) + 1;
  bad += atom_xchg(gl, -1L) != 3L; bad += atom_max((volatile __global ulong *)gl, 5UL) != ~0UL;
  atomic_init(ai, 1);
  bad += atomic_load(ai) != 1; atomic_store(ai, 2); bad += atomic_exchange(ai, 3) != 2;
  bad += atomic_fetch_add(ai, 10) != 3; bad += atomic_fetch_sub_explicit(ai, 1, memory_order_relaxed) != 13;
  bad += atomic_fetch_max_explicit(ai, 20, memory_order_acq_rel, memory_scope_device) != 12;
  bad += atomic_fetch_min(ai, -1) != 20; bad += atomic_fetch_or(ai, 0) != -1;
  int e = 5; bad += atomic_compare_exchange_strong(ai, &e, 6) != 0; bad += e != -1;
  bad += !atomic_compare_exchange_weak_explicit(ai, &e, 6, memory_order_seq_cst, memory_order_relaxed);
  bad += atomic_load_explicit(ai, memory_order_acquire) != 6;
  atomic_store(aul, ~0UL); bad += atomic_fetch_add(aul, 2UL) != ~0UL; bad += atomic_load(aul) != 1UL;
  atomic_store(af, 1.25f); bad += atomic_exchange(af, 2.0f) != 1.25f; bad += atomic_load(af) != 2.0f;
  float fe = 2.0f; bad += !atomic_compare_exchange_strong(af, &fe, 4.0f); bad += atomic_load(af) != 4.0f;
  atomic_flag_clear(fl); bad += atomic_flag_test_and_set(fl) != 0; bad += atomic_flag_test_and_set(fl) != 1;
  atomic_flag_clear_explicit(fl, memory_order_release); bad += atomic_flag_test_and_set_explicit(fl, memory_order_acquire, memory_scope_work_group) != 0;
  mem_fence(CLK_GLOBAL_MEM_FENCE); read_mem_fence(CLK_LOCAL_MEM_FENCE); write_mem_fence(CLK_GLOBAL_MEM_FENCE);
  atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
  barrier(CLK_LOCAL_MEM_FENCE); work_group_barrier(CLK_GLOBAL_MEM_FENCE, memory_scope_work_group);
  return bad;
}
int t_async(__global float4 *g, __local float4 *l) {
  event_t e = async_work_group_copy(l, (const __global float4 *)g, 5, 0);
  wait_group_events(1, &e);
  event_t e2 = async_work_group_strided_copy(g + 8, (const __local float4 *)l, 5, 2, 0);
  wait_group_events(1, &e2);
  int bad = 0;
  for (int i = 0; i < 5; ++i) bad += any(g[8 + 2 * i] != g[i]);
  prefetch(g, 4);
  return bad;
}
