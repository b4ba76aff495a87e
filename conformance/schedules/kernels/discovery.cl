// The occupancy discovery protocol (seed 000, Figure 3) and its participating-group
// execution environment (seed 000, Table 2). Needs mutex.cl (mutex_lock/unlock).
//
// Global state, initialised by the host before the launch:
//   mutex  the lock (two zeroed ints)
//   disc   disc[0] = poll_open (1), disc[1] = count (0)
//   M      per native group: its participating id (written by participants only)
// The protocol runs on one representative work-item per group; the result is
// shared with the group through __local env[] (filled by discover()):
//   env[0] participating?  env[1] p_get_group_id  env[2] p_get_num_groups

#define DISC_POLL_OPEN 0
#define DISC_COUNT 1
#define NON_PARTICIPATING 0
#define PARTICIPATING 1

// Figure 3, line by line. Returns PARTICIPATING or NON_PARTICIPATING; a
// participant also gets the final count (read in the closing phase, after the poll
// is closed, so every participant sees the same value).
int discovery_protocol(__global atomic_int *mutex, __global int *disc,
                       __global int *M, int *num_participants) {
  // Polling phase.
  mutex_lock(mutex);
  if (disc[DISC_POLL_OPEN]) {
    M[get_group_id(0)] = disc[DISC_COUNT];
    disc[DISC_COUNT]++;
    mutex_unlock(mutex);
  } else {
    mutex_unlock(mutex);
    return NON_PARTICIPATING;
  }
  // Closing phase (no delay before it: seed 000 §3.1 argues for none).
  mutex_lock(mutex);
  if (disc[DISC_POLL_OPEN])
    disc[DISC_POLL_OPEN] = 0;
  *num_participants = disc[DISC_COUNT];
  mutex_unlock(mutex);
  return PARTICIPATING;
}

// Whole group calls this; work-item 0 runs the protocol.
void discover(__global atomic_int *mutex, __global int *disc, __global int *M,
              __local int *env) {
  if (get_local_id(0) == 0) {
    int n = 0;
    env[0] = discovery_protocol(mutex, disc, M, &n);
    env[1] = env[0] ? M[get_group_id(0)] : -1;
    env[2] = n;
  }
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}

// Table 2.
int p_get_group_id(__local int *env) { return env[1]; }
int p_get_num_groups(__local int *env) { return env[2]; }
int p_get_global_id(__local int *env) {
  return env[1] * (int)get_local_size(0) + (int)get_local_id(0);
}
int p_get_global_size(__local int *env) {
  return env[2] * (int)get_local_size(0);
}
