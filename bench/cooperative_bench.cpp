// fibercl_coop_bench: cooperative kernels on FiberCL (seed 001, Sec. 5.3-5.4).
//
//   overhead        a work-stealing kernel and a resizing-barrier kernel, each in its
//                   plain form and its cooperative form (request_fork/offer_kill or
//                   resizing_global_barrier), nothing else running: median time ratio.
//   multitasking    the cooperative work-stealing kernel runs while the host enqueues,
//                   on a second queue, a short non-cooperative kernel every P ms that
//                   busies its groups for about E ms (the paper's light, medium and
//                   heavy graphics workloads); for N/4 and N/2 of the slots: the median
//                   gather time (submission to start: the slots taken back from the
//                   cooperative kernel), the short kernel's run time beside it, the
//                   period achieved, and the cooperative kernel's slowdown.
//
// Usage: OCL_ICD_VENDORS=build/fibercl.icd build/bench/fibercl_coop_bench [reps]
// Results and the paper's figures: bench/RESULTS.md.
#include <CL/cl_fibercl.h>
#include <fibercl/cl_host/errors.hpp>
#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>
#include <fibercl/cl_host/session.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

void ck(cl_int err, const char *what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "%s failed: %s (%d)\n", what, fibercl::cl_host::errorName(err), err);
    std::exit(1);
  }
}

double ms(Clock::duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

const char *kSource = R"CLC(
#include <fibercl/cooperative.h>
// One task: a dependent arithmetic chain (about `work` iterations per work-item).
float task(int t, int work) {
  float x = t * 0.001f + get_local_id(0);
  for (int i = 0; i < work; ++i)
    x = x * 0.999f + 0.5f;
  return x;
}

// Work stealing reduced to its scheduling skeleton: groups take tasks from a counter.
kernel void steal_plain(global atomic_int *next, int tasks, int work, global float *out) {
  for (;;) {
    int t = work_group_broadcast(get_local_id(0) == 0 ? atomic_fetch_add_explicit(next, 1,
                                 memory_order_relaxed, memory_scope_device) : 0, 0);
    if (t >= tasks)
      break;
    out[t * get_local_size(0) + get_local_id(0)] = task(t, work);
  }
}
kernel void steal_coop(global atomic_int *next, int tasks, int work, global float *out) {
  for (;;) {
    request_fork();
    offer_kill();
    int t = work_group_broadcast(get_local_id(0) == 0 ? atomic_fetch_add_explicit(next, 1,
                                 memory_order_relaxed, memory_scope_device) : 0, 0);
    if (t >= tasks)
      break;
    out[t * get_local_size(0) + get_local_id(0)] = task(t, work);
  }
}

// Rounds of strided work separated by inter-group barriers: a hand-written sense-free
// counter barrier over all groups (plain) or resizing barriers (cooperative).
kernel void rounds_plain(global atomic_int *arrived, int rounds, int n, int work,
                         global float *out) {
  int m = get_num_groups(0);
  for (int r = 0; r < rounds; ++r) {
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
      out[i] += task(i + r, work);
    barrier(CLK_GLOBAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
      atomic_fetch_add_explicit(arrived, 1, memory_order_acq_rel, memory_scope_device);
      while (atomic_load_explicit(arrived, memory_order_acquire, memory_scope_device) < (r + 1) * m)
        ;
    }
    barrier(CLK_GLOBAL_MEM_FENCE);
  }
}
kernel void rounds_coop(global atomic_int *arrived, int rounds, int n, int work,
                        global float *out) {
  transmit int r = 0;
  for (; r < rounds; ++r) {
    for (int i = get_global_id(0); i < n; i += get_global_size(0))
      out[i] += task(i + r, work);
    resizing_global_barrier();
  }
}

// The non-cooperative "graphics" kernel: every work-item busy for `work` iterations.
kernel void frame(int work, global float *out) {
  out[get_global_id(0)] = task(get_global_id(0), work);
}
)CLC";

struct Env {
  cl_context ctx;
  cl_device_id dev;
  cl_command_queue q, q2;
  cl_program prog;
};

Env setup() {
  Env e{};
  e.dev = fibercl::cl_host::findDevice(fibercl::cl_host::kFiberCL);
  if (!e.dev) {
    std::fprintf(stderr, "no FiberCL platform (set OCL_ICD_VENDORS)\n");
    std::exit(1);
  }
  try {
    e.ctx = fibercl::cl_host::createContext(e.dev);
    e.q = fibercl::cl_host::createQueue(e.ctx, e.dev);
    cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    e.q2 = fibercl::cl_host::createQueue(e.ctx, e.dev, profiling);
    fibercl::cl_host::BuildResult built =
        fibercl::cl_host::tryBuild(e.ctx, e.dev, {kSource}, "-cl-std=CL2.0");
    if (built.err != CL_SUCCESS) {
      std::fprintf(stderr, "%s\n", built.log.c_str());
      std::exit(1);
    }
    e.prog = built.program;
  } catch (const fibercl::cl_host::Error &err) {
    std::fprintf(stderr, "%s\n", err.what());
    std::exit(1);
  }
  return e;
}

constexpr cl_uint kGroups = 8, kLocal = 16, kTasks = 4000, kTaskWork = 2000;

cl_kernel kernelOf(Env &e, const char *name, cl_uint bound) {
  cl_int err;
  cl_kernel k = clCreateKernel(e.prog, name, &err);
  ck(err, name);
  ck(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL, sizeof bound, &bound),
     "occupancy");
  return k;
}

// Enqueues the work-stealing kernel on e.q (not waited for).
cl_event startSteal(Env &e, cl_kernel k, cl_mem next, cl_mem out) {
  cl_int zero = 0, tasks = kTasks, work = kTaskWork;
  ck(clEnqueueFillBuffer(e.q, next, &zero, sizeof zero, 0, sizeof zero, 0, nullptr, nullptr),
     "fill");
  clSetKernelArg(k, 0, sizeof next, &next);
  clSetKernelArg(k, 1, sizeof tasks, &tasks);
  clSetKernelArg(k, 2, sizeof work, &work);
  clSetKernelArg(k, 3, sizeof out, &out);
  size_t g = kGroups * kLocal, l = kLocal;
  cl_event ev;
  ck(clEnqueueNDRangeKernel(e.q, k, 1, nullptr, &g, &l, 0, nullptr, &ev), "steal");
  ck(clFlush(e.q), "flush");
  return ev;
}

double timeSteal(Env &e, const char *name, int reps) {
  cl_kernel k = kernelOf(e, name, kGroups);
  cl_int err;
  cl_mem next = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, 4, nullptr, &err);
  cl_mem out = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, kTasks * kLocal * 4, nullptr, &err);
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    clFinish(e.q);
    auto t0 = Clock::now();
    cl_event ev = startSteal(e, k, next, out);
    ck(clWaitForEvents(1, &ev), "wait");
    t.push_back(ms(Clock::now() - t0));
    clReleaseEvent(ev);
  }
  clReleaseMemObject(next);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  return median(t);
}

double timeRounds(Env &e, const char *name, int reps) {
  cl_kernel k = kernelOf(e, name, kGroups);
  cl_int err, rounds = 40, n = 1 << 14, work = 200;
  cl_mem arrived = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, 4, nullptr, &err);
  cl_mem out = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, size_t(n) * 4, nullptr, &err);
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    cl_int zero = 0;
    clEnqueueFillBuffer(e.q, arrived, &zero, 4, 0, 4, 0, nullptr, nullptr);
    clSetKernelArg(k, 0, sizeof arrived, &arrived);
    clSetKernelArg(k, 1, 4, &rounds);
    clSetKernelArg(k, 2, 4, &n);
    clSetKernelArg(k, 3, 4, &work);
    clSetKernelArg(k, 4, sizeof out, &out);
    clFinish(e.q);
    size_t g = kGroups * kLocal, l = kLocal;
    auto t0 = Clock::now();
    ck(clEnqueueNDRangeKernel(e.q, k, 1, nullptr, &g, &l, 0, nullptr, nullptr), name);
    ck(clFinish(e.q), "finish");
    t.push_back(ms(Clock::now() - t0));
  }
  clReleaseMemObject(arrived);
  clReleaseMemObject(out);
  clReleaseKernel(k);
  return median(t);
}

// The frame kernel's iterations for about `targetMs` alone on `groups` groups.
struct Frame {
  cl_kernel k;
  cl_mem out;
  cl_int work;
  cl_uint groups;
};

// Runs the frame kernel; returns its run time (profiling START..END, ms) and sets
// `gather` to the time from its submission to its start.
double runFrame(Env &e, Frame &f, double *gather = nullptr) {
  clSetKernelArg(f.k, 0, 4, &f.work);
  clSetKernelArg(f.k, 1, sizeof f.out, &f.out);
  size_t g = f.groups * kLocal, l = kLocal;
  cl_event ev;
  ck(clEnqueueNDRangeKernel(e.q2, f.k, 1, nullptr, &g, &l, 0, nullptr, &ev), "frame");
  ck(clFinish(e.q2), "frame finish");
  cl_ulong submit = 0, start = 0, end = 0;
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_SUBMIT, sizeof submit, &submit, nullptr);
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
  clGetEventProfilingInfo(ev, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
  clReleaseEvent(ev);
  if (gather)
    *gather = (start - submit) / 1e6;
  return (end - start) / 1e6;
}

void CL_CALLBACK recordEnd(cl_event, cl_int, void *at) {
  *static_cast<Clock::time_point *>(at) = Clock::now();
}

Frame calibrate(Env &e, cl_uint groups, double targetMs) {
  cl_int err;
  Frame f{clCreateKernel(e.prog, "frame", &err), nullptr, 1000, groups};
  f.out = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, groups * kLocal * 4, nullptr, &err);
  for (int i = 0; i < 12; ++i) {
    std::vector<double> t;
    for (int r = 0; r < 3; ++r)
      t.push_back(runFrame(e, f));
    double m = std::max(0.01, median(t));
    f.work = std::max<cl_int>(1, cl_int(f.work * targetMs / m));
  }
  return f;
}

} // namespace

int main(int argc, char **argv) {
  int reps = argc > 1 ? std::atoi(argv[1]) : 5;
  Env e = setup();
  std::printf("# FiberCL cooperative kernels, %u groups x %u work-items, occupancy bound %u, "
              "medians of %d runs\n",
              kGroups, kLocal, kGroups, reps);

  std::printf("\n## Cooperative overhead, nothing else running (seed 001 Table 2: mean 1.07, "
              "max 1.23)\n| kernel | plain ms | cooperative ms | ratio |\n|---|---|---|---|\n");
  double sp = timeSteal(e, "steal_plain", reps), sc = timeSteal(e, "steal_coop", reps);
  std::printf("| work stealing (fork+kill per task) | %.1f | %.1f | %.2f |\n", sp, sc, sc / sp);
  double rp = timeRounds(e, "rounds_plain", reps), rc = timeRounds(e, "rounds_coop", reps);
  std::printf("| 40 rounds, global barriers | %.1f | %.1f | %.2f |\n", rp, rc, rc / rp);

  std::printf("\n## Multitasking: a short kernel every P ms beside the cooperative work-stealing "
              "kernel\n(seed 001 Sec. 5.4: light and medium meet their period with N/4 at "
              "1.04x and 1.08x slowdown; heavy needs N/2, 1.47x)\n"
              "| workload | slots | short kernel alone ms | gather ms (median) | run beside ms "
              "(median) | period ms (median) | launches | cooperative slowdown |\n"
              "|---|---|---|---|---|---|---|---|\n");
  struct Workload {
    const char *name;
    double period, duration;
  } workloads[] = {{"light", 70, 3}, {"medium", 40, 3}, {"heavy", 40, 10}};
  cl_kernel coop = kernelOf(e, "steal_coop", kGroups);
  cl_int err;
  cl_mem next = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, 4, nullptr, &err);
  cl_mem out = clCreateBuffer(e.ctx, CL_MEM_READ_WRITE, kTasks * kLocal * 4, nullptr, &err);
  for (cl_uint slots : {kGroups / 4, kGroups / 2}) {
    setenv("FIBERCL_MULTITASK_GROUPS", std::to_string(slots).c_str(), 1);
    for (const Workload &w : workloads) {
      Frame f = calibrate(e, slots, w.duration);
      std::vector<double> alone;
      for (int r = 0; r < 5; ++r)
        alone.push_back(runFrame(e, f));
      double frameAlone = median(alone);
      std::vector<double> gathers, runs, periods, slowdowns;
      int launches = 0;
      for (int r = 0; r < reps; ++r) {
        clFinish(e.q);
        auto t0 = Clock::now();
        cl_event ev = startSteal(e, coop, next, out);
        Clock::time_point coopEnd{};
        ck(clSetEventCallback(ev, CL_COMPLETE, recordEnd, &coopEnd), "callback");
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        auto lastStart = Clock::now();
        bool first = true;
        for (;;) {
          cl_int st = CL_QUEUED;
          clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
          if (st == CL_COMPLETE || st < 0)
            break;
          auto s = Clock::now();
          if (!first)
            periods.push_back(ms(s - lastStart));
          first = false;
          lastStart = s;
          double gather = 0;
          runs.push_back(runFrame(e, f, &gather));
          gathers.push_back(gather);
          ++launches;
          // Until the next period, unless the cooperative kernel ends first.
          while (ms(Clock::now() - s) < w.period) {
            clGetEventInfo(ev, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof st, &st, nullptr);
            if (st == CL_COMPLETE || st < 0)
              break;
            std::this_thread::sleep_for(std::chrono::microseconds(200));
          }
        }
        clWaitForEvents(1, &ev);
        clReleaseEvent(ev);
        clFinish(e.q); // the callback has run
        slowdowns.push_back(ms(coopEnd - t0) / sc);
      }
      std::printf("| %s (P %.0f, E %.0f) | %u of %u | %.1f | %.2f | %.1f | %.1f | %d | %.2f |\n",
                  w.name, w.period, w.duration, slots, kGroups, frameAlone, median(gathers),
                  median(runs), median(periods), launches, median(slowdowns));
      clReleaseKernel(f.k);
      clReleaseMemObject(f.out);
    }
  }
  unsetenv("FIBERCL_MULTITASK_GROUPS");
  return 0;
}
