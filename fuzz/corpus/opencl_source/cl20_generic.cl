// options: -cl-std=CL2.0 -cl-kernel-arg-info
global atomic_int counter = ATOMIC_VAR_INIT(0);

int bump(int *p) { return ++*p; } // generic address space

kernel void gen(global int *g, local int *l, global atomic_uint *a) {
  private int x = 1;
  g[get_global_id(0)] = bump(&x) + bump(g) + bump(&l[get_local_id(0)]);
  atomic_fetch_add_explicit(a, 1u, memory_order_relaxed, memory_scope_device);
  atomic_fetch_add(&counter, 1);
  work_group_barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE, memory_scope_work_group);
  int s = work_group_reduce_add(g[get_global_id(0)]);
  int scan = work_group_scan_inclusive_max(s);
  if (work_group_all(scan > 0))
    g[0] = sub_group_broadcast(s, 0) + get_sub_group_size();
  global int *gp = to_global((int *)g);
  if (gp)
    *gp += 1;
}
