// Each of these is an error an OpenCL C compiler must report.
__kernel int returns_value(__global int *out) { return 1; }

__kernel void bad(__global float *out, __local int *l, int *private_ptr_arg) {
  __global int *g = l;               // address spaces do not mix
  out[0] = undeclared_thing + 1.0f;  // undeclared identifier
  double4 d = (double4)(1.0);
  float4 f = d;                      // no implicit vector conversion
  int r = recurse(3);
  image2d_t img;                     // images only as arguments
}

int recurse(int n) { return n ? recurse(n - 1) : 0; }
