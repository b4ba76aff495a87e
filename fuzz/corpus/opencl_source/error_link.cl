// Compiles, but cannot link: a function declared and never defined.
int defined_elsewhere(int x);
extern float missing_float(float);

__kernel void user(__global int *out) {
  out[get_global_id(0)] = defined_elsewhere(out[0]) + (int)missing_float(1.0f);
}
