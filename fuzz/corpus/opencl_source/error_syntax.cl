__kernel void broken(__global int *out {
  int x = 3
  out[get_global_id(0)] = x +;
  for (int i = 0; i < 4; ++i {
    out[i] = i;
}
