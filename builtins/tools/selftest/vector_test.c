#include <stdio.h>
unsigned __fibercl_local_id(unsigned d) { return 0; }
void *__fibercl_ctx(void) { return 0; }
void __fibercl_barrier(unsigned f) {}
int t_vector(int *, double *, short *);
int main(void) {
  int gi[64];
  double gd[4];
  short ls[16];
  int bad = t_vector(gi, gd, ls);
  printf("vector (shuffle, vload/vstore): %s (%d failures)\n", bad ? "FAIL" : "PASS", bad);
  return bad != 0;
}
