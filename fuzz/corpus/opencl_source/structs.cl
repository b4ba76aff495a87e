typedef struct {
  float2 pos;
  int id;
  char tag[3];
} Particle;

typedef union { float f; uint u; } Bits;

__constant float kWeights[4] = {0.1f, 0.2f, 0.3f, 0.4f};

static float weigh(const Particle *p, int k) { return p->pos.x * kWeights[k & 3] + p->id; }

__kernel void update(__global Particle *ps, Particle extra, __constant int *table,
                     __private int bias) {
  size_t i = get_global_id(0);
  Particle p = ps[i];
  Bits b;
  b.f = weigh(&p, table[i % 4]) + weigh(&extra, bias);
  p.id = (int)(b.u >> 9);
  p.tag[1] = 'x';
  ps[i] = p;
}
