// options: -cl-std=CL3.0 -cl-fast-relaxed-math -DSCALE=3 -cl-mad-enable
#ifndef SCALE
#error SCALE must be defined
#endif
#if defined(__opencl_c_fp64) && defined(__opencl_c_int64)
kernel void maths(global double *d, global long *l, global float *f) {
  size_t i = get_global_id(0);
  double x = d[i] * SCALE;
  d[i] = sqrt(x) + exp(-x) + sin(x) * cos(x) + pow(x, 1.5) + atan2(x, 2.0);
  l[i] = mul_hi(l[i], (long)x) + popcount(l[i]) + rotate(l[i], 5L) + abs_diff(l[i], 7L);
  int q, e;
  float whole;
  f[i] = native_divide(f[i], 3.0f) + half_sqrt(f[i]) + nextafter(f[i], 0.0f) +
         remquo(f[i], 2.0f, &q);
  f[i] += fract(f[i], &whole) + frexp(f[i], &e) + q + e + whole;
}
#endif
