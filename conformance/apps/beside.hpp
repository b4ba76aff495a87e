// --beside MS: while an app's kernel runs, another kernel is enqueued on a second
// queue every MS milliseconds (and waited for), as a display would. Beside a
// cooperative kernel on FiberCL, each one needs work-group slots that the cooperative
// kernel gives back at offer_kill or a resizing barrier and takes back by forking:
// the apps are then verified after real kills and forks in parallel mode.
#pragma once

#include <CL/cl.h>

#include "cl_harness.hpp"

namespace fibercl_apps {

class Beside {
public:
  explicit Beside(Cl &cl);
  ~Beside();
  Beside(const Beside &) = delete;
  Beside &operator=(const Beside &) = delete;
  // Until `main` completes: one launch every `period_ms`. Returns the launches made.
  int runWhile(cl_event main, int period_ms);

private:
  Cl &cl_;
  cl_command_queue queue_ = nullptr;
  cl_program program_ = nullptr;
  cl_kernel kernel_ = nullptr;
  cl_mem out_ = nullptr;
};

} // namespace fibercl_apps
