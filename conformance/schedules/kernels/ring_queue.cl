// Program ring_queue: a work queue in a ring of S slots with one state word per
// slot, used by G groups that are all occupant at once (G = the occupancy bound, 8
// unbounded), each of them both a producer and a consumer (so that it also works
// with one group). OpenCL C 2.0; one representative work-item per group (block
// semantics), the rest of the group waits at the closing barrier.
//
// A slot is EMPTY, FILLING (a producer owns it), READY (holds an item) or TAKING
// (a consumer owns it). A producer scans the ring from its cursor for an EMPTY slot,
// claims it with a compare-and-swap, writes the item and its payload and marks it
// READY (release). A consumer scans the ring from its cursor for a READY slot,
// claims it with a compare-and-swap (acquire), copies the item out, marks the slot
// EMPTY (release), checks the payload and counts the item in seen[item] and in
// `consumed`. Scans are mostly atomic loads of state words; only a slot that looks
// right is CASed. Each group alternates one put (while it has items left) and one
// take, and leaves when `consumed` reaches G * K: a put never blocks, so the ring
// can never fill up with a group waiting on it.
//
// state, slot_item, slot_payload: S ints, state zeroed (EMPTY). consumed: one
// zeroed atomic int. seen: G * K zeroed atomic ints. per_group: K items each.
// stats[g] = {items consumed by g, payload errors seen by g}.

#define SLOT_EMPTY 0
#define SLOT_FILLING 1
#define SLOT_READY 2
#define SLOT_TAKING 3

uint ring_payload(int item) { return corpus_hash((uint)item * 2654435761u + 1u); }

// Claims one slot in state `from` for state `to`, scanning at most S slots from
// *cursor; returns the slot or -1 (the cursor moves past a claimed slot).
int ring_claim(__global atomic_int *state, int S, int *cursor, int from, int to) {
  for (int i = 0; i < S; ++i) {
    const int s = (*cursor + i) % S;
    if (atomic_load_explicit(&state[s], memory_order_relaxed,
                             memory_scope_device) != from)
      continue;
    int expected = from;
    if (atomic_compare_exchange_strong_explicit(
            &state[s], &expected, to, memory_order_acquire, memory_order_relaxed,
            memory_scope_device)) {
      *cursor = (s + 1) % S;
      return s;
    }
  }
  return -1;
}

__kernel void ring_queue(__global atomic_int *state, __global int *slot_item,
                         __global uint *slot_payload, __global atomic_int *consumed,
                         __global atomic_int *seen, int S, int per_group,
                         __global int *stats) {
  barrier(CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    const int g = (int)get_group_id(0);
    const int total = (int)get_num_groups(0) * per_group;
    // Start the cursors in different places, as independent groups would.
    int put_cursor = (int)(corpus_hash((uint)g) % (uint)S);
    int take_cursor = (int)(corpus_hash((uint)g + 977u) % (uint)S);
    int produced = 0, mine = 0, errors = 0;
    for (;;) {
      if (produced < per_group) {
        const int s = ring_claim(state, S, &put_cursor, SLOT_EMPTY, SLOT_FILLING);
        if (s >= 0) {
          const int item = g * per_group + produced;
          slot_item[s] = item;
          slot_payload[s] = ring_payload(item);
          atomic_store_explicit(&state[s], SLOT_READY, memory_order_release,
                                memory_scope_device);
          ++produced;
        }
      }
      const int s = ring_claim(state, S, &take_cursor, SLOT_READY, SLOT_TAKING);
      if (s >= 0) {
        const int item = slot_item[s];
        const uint payload = slot_payload[s];
        atomic_store_explicit(&state[s], SLOT_EMPTY, memory_order_release,
                              memory_scope_device);
        if (item < 0 || item >= total || payload != ring_payload(item)) {
          ++errors;
        } else {
          atomic_fetch_add_explicit(&seen[item], 1, memory_order_relaxed,
                                    memory_scope_device);
        }
        ++mine;
        atomic_fetch_add_explicit(consumed, 1, memory_order_relaxed,
                                  memory_scope_device);
      }
      if (produced == per_group &&
          atomic_load_explicit(consumed, memory_order_relaxed,
                               memory_scope_device) == total)
        break;
    }
    stats[2 * g] = mine;
    stats[2 * g + 1] = errors;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
}
