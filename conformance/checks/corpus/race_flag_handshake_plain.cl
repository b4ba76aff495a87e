// Group 0 publishes data[0] and raises *flag; group 1 waits for the flag (bounded) and
// reads data[0]. Plain stores: nothing orders the data before the flag.
__kernel void race_flag_handshake_plain(__global int *data, __global int *out,
                                        __global int *flag) {
  if (get_group_id(0) == 0) {
    data[0] = 42; // BUG (racy write)
    *flag = 1;    // BUG: plain store, no release
  } else {
    int n = 0;
    while (*(volatile __global int *)flag == 0 && n < 1000000)
      n++;
    out[0] = data[0]; // BUG (racy read)
    out[1] = n;
  }
}
