// Work-stealing task queues (seed 001 §2.2, Fig. 2). Every group owns a queue of task
// ids, a circular buffer of `cap` slots guarded by the queue's own mutex. The owner
// pushes and pops at the tail (newest first: depth-first, the queue stays short);
// a group whose queue is empty steals from the head of another queue (oldest first:
// the biggest pieces of work). head and tail are atomics only so that an idle group
// can skip empty queues without taking their locks; every change is made under the
// lock, whose release/acquire also publishes the task's data.
//
// Termination: `pending` counts tasks that are queued or being processed. A task's
// children are counted before they are pushed and the task itself is uncounted when
// it is done, so pending reaches 0 only when no work is left anywhere.
//
// The includer defines the mutex first: typedef ... ws_mutex; ws_lock(global
// ws_mutex *); ws_unlock(global ws_mutex *) (cas_mutex.cl or a FiberCL mutex).

typedef struct {
  atomic_uint head, tail;
} ws_queue;

// What a group needs to reach the queues (built from kernel arguments; in a
// cooperative kernel rebuilt after request_fork, since private variables that are
// not transmitted are undefined in a forked group).
typedef struct {
  global ws_queue *queues;
  global int *slots; // cap slots per queue
  global ws_mutex *locks;
  uint cap;
  global atomic_int *pending;
  global atomic_int *error; // 0, or the first failure: 1 node table full, 2 queue full
} ws_pool;

#define WS_NONE -1 // no task found this time (others may still be at work)
#define WS_DONE -2 // no task is left anywhere

void ws_add_pending(ws_pool w, int tasks) {
  atomic_fetch_add_explicit(w.pending, tasks, memory_order_relaxed, memory_scope_device);
}

void ws_task_done(ws_pool w) {
  atomic_fetch_sub_explicit(w.pending, 1, memory_order_release, memory_scope_device);
}

// A new task that finds no room is lost: the error word keeps the first failure's
// code (the host reports it) and the task is uncounted, so that the launch still ends.
void ws_lose(ws_pool w, int code) {
  int none = 0;
  atomic_compare_exchange_strong_explicit(w.error, &none, code, memory_order_relaxed,
                                          memory_order_relaxed, memory_scope_device);
  ws_task_done(w);
}

// A node for a new task from the includer's table of node_cap nodes: its id, or -1
// if the table is full (the task is lost).
int ws_new_node(ws_pool w, global atomic_int *node_count, int node_cap) {
  const int id =
      atomic_fetch_add_explicit(node_count, 1, memory_order_relaxed, memory_scope_device);
  if (id >= node_cap) {
    ws_lose(w, 1);
    return -1;
  }
  return id;
}

// Push a new task onto queue q, whose lock the caller holds. Lost if the queue is full.
void ws_push_locked(ws_pool w, int q, int task) {
  global ws_queue *Q = &w.queues[q];
  const uint head = atomic_load_explicit(&Q->head, memory_order_relaxed, memory_scope_device);
  const uint tail = atomic_load_explicit(&Q->tail, memory_order_relaxed, memory_scope_device);
  if (tail - head >= w.cap) {
    ws_lose(w, 2);
    return;
  }
  w.slots[(size_t)q * w.cap + tail % w.cap] = task;
  atomic_store_explicit(&Q->tail, tail + 1, memory_order_relaxed, memory_scope_device);
}

// Take a task from queue q (caller holds its lock): the owner from the tail, a
// thief from the head. WS_NONE if it is empty.
int ws_take_locked(ws_pool w, int q, bool owner) {
  global ws_queue *Q = &w.queues[q];
  const uint head = atomic_load_explicit(&Q->head, memory_order_relaxed, memory_scope_device);
  const uint tail = atomic_load_explicit(&Q->tail, memory_order_relaxed, memory_scope_device);
  if (head == tail)
    return WS_NONE;
  if (owner) {
    atomic_store_explicit(&Q->tail, tail - 1, memory_order_relaxed, memory_scope_device);
    return w.slots[(size_t)q * w.cap + (tail - 1) % w.cap];
  }
  atomic_store_explicit(&Q->head, head + 1, memory_order_relaxed, memory_scope_device);
  return w.slots[(size_t)q * w.cap + head % w.cap];
}

// pop_or_steal of Fig. 2 (one work-item): own queue q first, then the others of the
// nq queues in turn.
int ws_pop_or_steal(ws_pool w, int q, int nq) {
  for (int k = 0; k < nq; ++k) {
    const int j = (q + k) % nq;
    global ws_queue *Q = &w.queues[j];
    if (atomic_load_explicit(&Q->head, memory_order_relaxed, memory_scope_device) ==
        atomic_load_explicit(&Q->tail, memory_order_relaxed, memory_scope_device))
      continue; // looks empty: do not bother its owner's lock
    ws_lock(&w.locks[j]);
    const int t = ws_take_locked(w, j, k == 0);
    ws_unlock(&w.locks[j]);
    if (t >= 0)
      return t;
  }
  return WS_NONE;
}

// A work-group function: work-item 0 looks for a task (more_work and pop_or_steal of
// Fig. 2) and every work-item gets the answer: a task id, WS_NONE or WS_DONE.
int ws_get_task(ws_pool w, int q, int nq, local int *answer) {
  if (get_local_id(0) == 0) {
    int t = WS_DONE;
    if (atomic_load_explicit(w.pending, memory_order_acquire, memory_scope_device) > 0)
      t = ws_pop_or_steal(w, q, nq);
    *answer = t;
  }
  // The global fence extends what work-item 0 acquired (the task's data) to the group.
  work_group_barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  const int t = *answer;
  work_group_barrier(CLK_LOCAL_MEM_FENCE); // all have read it before it is reused
  return t;
}
