// Helpers every corpus program uses, written the way GPU programmers write them:
// a cheap integer hash for per-group pseudo-random numbers, and a busy delay loop on
// a volatile private variable (there is no portable sleep in OpenCL C, seed 000 §3.1).
// Valid OpenCL C 1.2 and 2.0.

uint corpus_hash(uint x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Spin for about d iterations. The volatile sink keeps the compiler from deleting the
// loop; its trip count is bounded, so it never waits for another group.
void corpus_delay(int d) {
  volatile int sink = 0;
  for (int i = 0; i < d; ++i)
    sink++;
}

// The value work-item `lid` of (participating) group `g` publishes in round `r` of
// the data-exchange checks around inter-group barriers.
int corpus_round_value(int r, int g, int lid) {
  return (int)(corpus_hash((uint)(r * 7919 + g * 131 + lid)) & 0x7fffffff);
}
