#include "ws_app.hpp"

#include <vector>

namespace fibercl_apps {

void WsApp::reset(Cl &cl, size_t groups) {
  bufs.upload(cl, "pending", std::vector<int>{1});
  bufs.zeroed(cl, "error", 4);
  // Per queue {head, tail}, then node_cap slots per queue.
  std::vector<cl_uint> head_tail(2 * groups, 0);
  head_tail[1] = 1;
  cl.write(bufs.sized(cl, "queues", groups * 8), head_tail);
  std::vector<int> slots(size_t(node_cap) * groups, -1);
  slots[0] = 0;
  cl.write(bufs.sized(cl, "slots", groups * size_t(node_cap) * 4), slots);
  reset_tasks(cl);
}

void WsApp::set_args(Args a, Form f, size_t groups) {
  a.mem(bufs["queues"])
      .mem(bufs["slots"])
      .u32(cl_uint(node_cap))
      .mem(bufs["pending"])
      .mem(bufs["error"]);
  set_task_args(a);
  if (f == COOP)
    a.i32(cl_int(groups));
}

std::string WsApp::verify(Cl &cl) {
  switch (const int err = cl.read1<int>(bufs["error"])) { // ws_fail's codes
  case 0:
    break;
  case 1:
    return "node table full";
  case 2:
    return "queue full";
  default:
    return format("error %d", err);
  }
  const int pending = cl.read1<int>(bufs["pending"]);
  if (pending != 0)
    return format("%d tasks still pending at exit", pending);
  return verify_tasks(cl);
}

} // namespace fibercl_apps
