// options: -cl-std=CL2.0
#include <fibercl/cooperative.h>
kernel void persistent(global int *work, global atomic_int *next, int total) {
  transmit int done = 0;
  while (true) {
    int item = 0;
    if (get_local_id(0) == 0)
      item = atomic_fetch_add(next, 1);
    item = work_group_broadcast(item, 0);
    if (item >= total)
      break;
    work[item] *= 2;
    done += 1;
    offer_kill();
    if (cooperative_query() > 0)
      request_fork();
    resizing_global_barrier();
    global_barrier();
  }
}
