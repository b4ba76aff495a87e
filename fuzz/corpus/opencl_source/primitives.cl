// options: -cl-std=CL2.0 -DBARRIER=fibercl_xf_barrier -DMUTEX=fibercl_ticket_mutex -DLOCK=fibercl_ticket_lock -DUNLOCK=fibercl_ticket_unlock
#include <fibercl/primitives.h>
kernel void ring(global void *ctx, global int *v, global MUTEX *m, global int *count) {
  fibercl_participant p = fibercl_discover(ctx);
  if (!p_participates(p))
    return;
  uint g = p_get_group_id(p), n = p_get_num_groups(p);
  int left = v[(g + n - 1) % n];
  BARRIER(ctx, &p);
  if (get_local_id(0) == 0) {
    v[g] = left + 1;
    LOCK(m);
    *count += 1;
    UNLOCK(m);
  }
}
