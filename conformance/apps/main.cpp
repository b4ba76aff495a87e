// fibercl_apps: the evaluation applications of "Cooperative Kernels" (seed 001, §5.1
// Table 1) in three forms each, run through the OpenCL ICD loader and checked against
// references computed here on the host. README.md beside this file describes them.
//
//   fibercl_apps <app|all> <plain|prim|coop|all> [--groups G] [--local L]
//                [--repeat R] [--time] [--timeout S] [--kernels DIR] [--source]
//                [--beside MS]
//
// One line per (app, form): "<app> <form> ok <ms>" (median kernel time of the R
// runs, every run verified) or "<app> <form> FAIL <why>". Exit status 1 if any
// failed. --time adds the spread of the runs and the slowdown of the prim and coop
// forms over the plain one (seed 001 Table 2 measures coop over plain). --source
// prints the composed kernel sources with line numbers (as deadlock reports cite them).
// --beside MS enqueues another kernel on a second queue every MS ms while each app
// kernel runs (beside.hpp: the cooperative kernel gives groups back and forks them).
//
// Forms: plain = persistent threads with a hand-written barrier or mutex over all
// launched groups; prim = <fibercl/primitives.h> (discovery, XF barrier, library
// mutexes); coop = <fibercl/cooperative.h> (resizing barriers / request_fork +
// offer_kill). Kernels are kernels/<app>_<form>.cl; `#include "file"` lines are
// inlined from the same directory here (angle-bracket includes are left to the
// OpenCL compiler, which serves the <fibercl/...> headers itself).
//
// Environment: FIBERCL_APPS_BUILD_OPTIONS replaces the build options (default
// "-cl-std=CL2.0"), e.g. to add -I for the <fibercl/...> headers on another OpenCL.
//
// Files: cl_harness (OpenCL), graphs (inputs of the graph apps), app.hpp (what an app
// provides), graph_apps, ws_app + octree_app + game_app (the apps), this file (the
// options and the runs).

#include "app.hpp"
#include "beside.hpp"

#if __has_include(<CL/cl_fibercl.h>)
#include <CL/cl_fibercl.h>
#endif

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

#ifndef FIBERCL_PRIMITIVES_CTX_BYTES
// <CL/cl_fibercl.h> without the primitives' context size: take more than enough (the
// context only has to be at least that big).
#define FIBERCL_PRIMITIVES_CTX_BYTES (64 * 1024)
#endif

#ifndef FIBERCL_APPS_KERNEL_DIR
// Default: kernels/ beside this source file.
static std::string default_kernel_dir() {
  std::string f = __FILE__;
  size_t slash = f.find_last_of('/');
  return (slash == std::string::npos ? std::string(".") : f.substr(0, slash)) + "/kernels";
}
#define FIBERCL_APPS_KERNEL_DIR default_kernel_dir()
#endif

using namespace fibercl_apps;

namespace {

// ---- Watchdog --------------------------------------------------------------------------
// A blocking algorithm that hangs (an all-groups barrier on an implementation that
// does not run all groups at once) never returns from the wait: report and exit.

std::atomic<long long> g_deadline_ms{0}; // 0 = disarmed
std::string g_running;                   // "<app> <form>" being run

long long now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void start_watchdog(int timeout_s) {
  std::thread([timeout_s] {
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      const long long d = g_deadline_ms.load();
      if (d != 0 && now_ms() > d) {
        std::printf("%s FAIL hang: no completion after %d s\n", g_running.c_str(), timeout_s);
        std::fflush(stdout);
        _exit(3);
      }
    }
  }).detach();
}

// ---- Running one (app, form) -------------------------------------------------------------

struct Options {
  size_t groups = 8, local = 64;
  int repeat = 1, timeout = 60;
  bool time = false;
  bool source = false; // print the composed kernel sources instead of running
  int beside_ms = 0;   // --beside: another kernel every this many ms (0: none)
  std::string kernel_dir;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty()      ? 0
         : v.size() % 2 ? v[v.size() / 2]
                        : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

// Builds <app>_<form>, runs it opt.repeat times and verifies every run; the wall time
// of each enqueue and wait, in ms. Fails on the first error or wrong result.
std::vector<double> run(Cl &cl, App &app, Form form, const Options &opt) {
  const std::string kname = std::string(app.name()) + "_" + kFormNames[form];
  const Kernel kernel(cl, kernel_source(opt.kernel_dir, kname + ".cl"), kname);
  const cl_kernel k = kernel.get();

  // The form's synchronisation state (first arguments): the plain barrier's counter
  // and generation, the primitives' context (zeroed once: discovery leaves it ready
  // for the next launch), the queues' mutexes (16 bytes each is enough for any).
  Buffers sync;
  cl_mem bar = sync.sized(cl, "barrier", 8);
  cl_mem ctx = sync.zeroed(cl, "primitives context", FIBERCL_PRIMITIVES_CTX_BYTES);
  cl_mem locks = sync.sized(cl, "locks", 16 * opt.groups);

  std::vector<double> ms;
  const size_t global = opt.groups * opt.local, local = opt.local;
  std::unique_ptr<Beside> beside;
  if (opt.beside_ms > 0)
    beside = std::make_unique<Beside>(cl);
  for (int r = 0; r < opt.repeat; ++r) {
    app.reset(cl, opt.groups);
    cl.zero(bar, 8);
    cl.zero(locks, 16 * opt.groups);
    Args a{k, 0};
    if (!app.work_stealing()) {
      if (form == PLAIN)
        a.mem(bar);
      if (form == PRIM)
        a.mem(ctx);
    } else {
      if (form == PRIM)
        a.mem(ctx);
      a.mem(locks);
    }
    app.set_args(a, form, opt.groups);
    check(clFinish(cl.queue()), "clFinish");

    g_deadline_ms = now_ms() + 1000LL * opt.timeout;
    const auto t0 = std::chrono::steady_clock::now();
    cl_event ev = nullptr;
    check(clEnqueueNDRangeKernel(cl.queue(), k, 1, nullptr, &global, &local, 0, nullptr, &ev),
          "clEnqueueNDRangeKernel");
    if (beside)
      beside->runWhile(ev, opt.beside_ms);
    const cl_int waited = clWaitForEvents(1, &ev);
    const auto t1 = std::chrono::steady_clock::now();
    g_deadline_ms = 0;
    cl_int status = CL_COMPLETE;
    clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr);
    clReleaseEvent(ev);
    if (status < 0 || waited != CL_SUCCESS) {
      const cl_int code = status < 0 ? status : waited;
      fail(format("%s: kernel failed: %s (%d)",
                  code == CL_OUT_OF_RESOURCES ? "deadlock reported" : "launch", errorName(code),
                  code));
    }
    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    const std::string why = app.verify(cl);
    if (!why.empty())
      fail(r == 0 ? why : format("run %d of %d: %s", r + 1, opt.repeat, why.c_str()));
  }
  return ms;
}

// --source: the text the OpenCL compiler sees (deadlock reports name its line numbers).
void print_sources(const std::vector<std::string> &apps, const std::vector<std::string> &forms,
                   const std::string &kernel_dir) {
  for (const auto &aname : apps)
    for (const auto &fname : forms) {
      std::istringstream in(kernel_source(kernel_dir, aname + "_" + fname + ".cl"));
      int n = 0;
      std::printf("==== %s_%s.cl\n", aname.c_str(), fname.c_str());
      for (std::string line; std::getline(in, line);)
        std::printf("%5d  %s\n", ++n, line.c_str());
    }
}

// --time, seed 001 Table 2: the slowdown of the prim and coop forms over plain.
void print_slowdowns(const std::vector<std::string> &apps,
                     const std::map<std::pair<std::string, std::string>, double> &medians) {
  for (const char *other : {"prim", "coop"}) {
    double log_sum = 0, worst = 0;
    int n = 0;
    std::string worst_app;
    for (const auto &aname : apps) {
      auto p = medians.find({aname, "plain"}), o = medians.find({aname, other});
      if (p == medians.end() || o == medians.end() || p->second <= 0)
        continue;
      const double s = o->second / p->second;
      std::printf("# slowdown %s/plain %s: %.3f\n", other, aname.c_str(), s);
      log_sum += std::log(s);
      ++n;
      if (s > worst) {
        worst = s;
        worst_app = aname;
      }
    }
    if (n > 0)
      std::printf("# slowdown %s/plain: geometric mean %.3f, max %.3f (%s) over %d apps\n", other,
                  std::exp(log_sum / n), worst, worst_app.c_str(), n);
  }
}

void usage() {
  std::fprintf(
      stderr, "usage: fibercl_apps <app|all> <plain|prim|coop|all> [--groups G] [--local L]\n"
              "                    [--repeat R] [--time] [--timeout S] [--kernels DIR] [--source]\n"
              "                    [--beside MS]\n"
              "apps: color mis sssp bfs octree game\n");
}

bool parse_form(const std::string &name, Form *form) {
  for (Form f : {PLAIN, PRIM, COOP})
    if (name == kFormNames[f]) {
      *form = f;
      return true;
    }
  return false;
}

} // namespace

int main(int argc, char **argv) {
  if (argc < 3) {
    usage();
    return 2;
  }
  Options opt;
  opt.kernel_dir = FIBERCL_APPS_KERNEL_DIR;
  std::vector<std::string> apps, forms;
  const std::string a1 = argv[1], a2 = argv[2];
  if (a1 == "all")
    apps = app_names();
  else
    apps.push_back(a1);
  if (a2 == "all")
    forms.assign(std::begin(kFormNames), std::end(kFormNames));
  else
    forms.push_back(a2);
  for (int i = 3; i < argc; ++i) {
    const std::string s = argv[i];
    auto value = [&]() -> long {
      if (i + 1 >= argc) {
        usage();
        std::exit(2);
      }
      return std::strtol(argv[++i], nullptr, 10);
    };
    if (s == "--groups")
      opt.groups = size_t(std::max(1L, value()));
    else if (s == "--local")
      opt.local = size_t(std::max(1L, value()));
    else if (s == "--repeat")
      opt.repeat = int(std::max(1L, value()));
    else if (s == "--timeout")
      opt.timeout = int(std::max(1L, value()));
    else if (s == "--time")
      opt.time = true;
    else if (s == "--beside")
      opt.beside_ms = int(std::max(1L, value()));
    else if (s == "--source")
      opt.source = true;
    else if (s == "--kernels" && i + 1 < argc)
      opt.kernel_dir = argv[++i];
    else {
      usage();
      return 2;
    }
  }
  for (const auto &a : apps)
    if (!make_app(a)) {
      std::fprintf(stderr, "unknown app '%s'\n", a.c_str());
      usage();
      return 2;
    }
  std::vector<Form> form_ids;
  for (const auto &f : forms)
    if (!parse_form(f, &form_ids.emplace_back())) {
      std::fprintf(stderr, "unknown form '%s'\n", f.c_str());
      usage();
      return 2;
    }

  if (opt.source) {
    print_sources(apps, forms, opt.kernel_dir);
    return 0;
  }

  Cl cl;
  try {
    cl.open();
  } catch (const Failure &f) {
    std::printf("setup FAIL %s\n", f.what());
    return 1;
  }
  start_watchdog(opt.timeout);
  if (opt.time)
    std::printf("# %s, %zu groups x %zu work-items, %d run(s) each\n", cl.platform_name.c_str(),
                opt.groups, opt.local, opt.repeat);

  bool all_ok = true;
  std::map<std::pair<std::string, std::string>, double> medians;
  for (const auto &aname : apps) {
    auto app = make_app(aname);
    app->prepare();
    if (opt.time)
      std::printf("# %s: %s\n", aname.c_str(), app->describe().c_str());
    for (const Form form : form_ids) {
      const std::string fname = kFormNames[form];
      g_running = aname + " " + fname;
      try {
        const std::vector<double> ms = run(cl, *app, form, opt);
        const double med = median(ms);
        medians[{aname, fname}] = med;
        std::printf("%s %s ok %.2f\n", aname.c_str(), fname.c_str(), med);
        if (opt.time)
          std::printf("#   %s %s: median %.3f ms, min %.3f, max %.3f over %zu runs\n",
                      aname.c_str(), fname.c_str(), med, *std::min_element(ms.begin(), ms.end()),
                      *std::max_element(ms.begin(), ms.end()), ms.size());
      } catch (const Failure &f) {
        all_ok = false;
        std::printf("%s %s FAIL %s\n", aname.c_str(), fname.c_str(), f.what());
      }
      std::fflush(stdout);
    }
  }

  if (opt.time)
    print_slowdowns(apps, medians);
  return all_ok ? 0 : 1;
}
