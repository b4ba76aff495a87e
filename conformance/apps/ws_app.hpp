// The host side that the work-stealing apps (octree, game) share: the task pool of
// kernels/ws_common.cl (a queue of `node_cap` task slots per group, the count of
// pending tasks, the error word), set up before the app's own state and checked
// before the app's own result.
#pragma once

#include "app.hpp"

namespace fibercl_apps {

class WsApp : public App {
public:
  bool work_stealing() const final { return true; }
  // Queue 0 holds the root task (node 0), one task is pending, no error; then
  // reset_tasks.
  void reset(Cl &cl, size_t groups) final;
  // The pool's arguments, set_task_args, then for the coop form the number of queues
  // (a killed group may leave tasks in its queue, so thieves look at all of them).
  void set_args(Args a, Form f, size_t groups) final;
  // No overflow and nothing pending, then verify_tasks.
  std::string verify(Cl &cl) final;

protected:
  int node_cap = 0; // the node table's size, and every queue's

  virtual void reset_tasks(Cl &cl) = 0;
  virtual void set_task_args(Args &a) = 0;
  virtual std::string verify_tasks(Cl &cl) = 0;
};

} // namespace fibercl_apps
