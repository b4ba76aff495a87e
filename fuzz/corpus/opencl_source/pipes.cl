// options: -cl-std=CL2.0
typedef struct { int key; float value; } Packet;

__kernel void produce(__global const Packet *in, __write_only pipe Packet out) {
  Packet p = in[get_global_id(0)];
  reserve_id_t r = reserve_write_pipe(out, 1);
  if (is_valid_reserve_id(r)) {
    write_pipe(out, r, 0, &p);
    commit_write_pipe(out, r);
  }
}

__kernel void consume(__read_only pipe Packet in, __global Packet *got, __global int *n) {
  Packet p;
  if (read_pipe(in, &p) == 0)
    got[atomic_inc(n)] = p;
  uint packets = get_pipe_num_packets(in) + get_pipe_max_packets(in);
  if (packets == 0)
    got[0].key = -1;
}
