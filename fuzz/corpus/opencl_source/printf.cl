__kernel void say(__global const float4 *v, int n) {
  size_t i = get_global_id(0);
  if (i == 0)
    printf("n=%d first=%v4hlf name=%s hex=%#x %5.2e%%\n", n, v[0], "kernel", n, 1.5f);
  printf("%c%lu %o %-8s|\n", 'w', (ulong)i, 8, "left");
}
