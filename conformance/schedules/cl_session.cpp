// OpenCL plumbing for the schedule corpus (see cl_session.hpp).
#include "cl_session.hpp"

#include <fibercl/cl_host/platforms.hpp>
#include <fibercl/cl_host/programs.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace corpus {

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw SetupError("cannot read kernel file " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool isDir(const std::string &p) {
  struct stat st;
  return !p.empty() && stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string dirName(const std::string &p) {
  auto slash = p.rfind('/');
  return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
}

// Redirects file descriptor 2 to a temporary file for the duration of a launch,
// so FiberCL's deadlock report can be recognised (and hidden with --quiet).
class StderrCapture {
public:
  StderrCapture() {
    std::fflush(stderr);
    file_ = std::tmpfile();
    saved_ = dup(2);
    if (file_ && saved_ >= 0)
      dup2(fileno(file_), 2);
  }
  std::string finish() {
    std::fflush(stderr);
    if (saved_ >= 0) {
      dup2(saved_, 2);
      close(saved_);
      saved_ = -1;
    }
    std::string text;
    if (file_) {
      std::rewind(file_);
      char buf[4096];
      size_t n;
      while ((n = std::fread(buf, 1, sizeof buf, file_)) > 0)
        text.append(buf, n);
      std::fclose(file_);
      file_ = nullptr;
    }
    return text;
  }
  ~StderrCapture() { finish(); }

private:
  FILE *file_ = nullptr;
  int saved_ = -1;
};

} // namespace

std::string findKernelDir(const std::string &option) {
  std::vector<std::string> tried;
  auto consider = [&](const std::string &d) {
    if (d.empty())
      return false;
    tried.push_back(d);
    return isDir(d);
  };
  if (!option.empty()) {
    if (!isDir(option))
      throw SetupError("--kernels " + option + ": not a directory");
    return option;
  }
  if (const char *env = std::getenv("SCHEDULE_CORPUS_KERNELS"); env && consider(env))
    return env;
#ifdef CORPUS_KERNEL_DIR
  if (consider(CORPUS_KERNEL_DIR))
    return CORPUS_KERNEL_DIR;
#endif
  if (std::string d = dirName(__FILE__) + "/kernels"; consider(d))
    return d;
  char exe[4096];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) {
    exe[n] = 0;
    if (std::string d = dirName(exe) + "/kernels"; consider(d))
      return d;
  }
  std::string msg = "kernel directory not found (use --kernels DIR); tried:";
  for (auto &t : tried)
    msg += " " + t;
  throw SetupError(msg);
}

Session::Session(std::string kernelDir) : kernelDir_(std::move(kernelDir)) {
  std::string seen;
  cl_device_id device =
      fibercl::cl_host::findDevice(fibercl::cl_host::kFiberCL, CL_DEVICE_TYPE_ALL, &seen);
  if (!device)
    throw SetupError("no FiberCL platform among the installed ICDs (platforms seen: " + seen +
                     "; is OCL_ICD_VENDORS set?)");
  cl_ = fibercl::cl_host::Session(device);
}

Session::~Session() {
  for (auto &p : programs_)
    clReleaseProgram(p.second);
}

cl_program Session::program(const std::vector<std::string> &files, const std::string &options) {
  std::string key = options;
  for (auto &f : files)
    key += "|" + f;
  if (auto it = programs_.find(key); it != programs_.end())
    return it->second;

  std::vector<std::string> texts;
  for (auto &f : files)
    texts.push_back(readFile(kernelDir_ + "/" + f));
  fibercl::cl_host::BuildResult built =
      fibercl::cl_host::tryBuild(cl_.context(), cl_.device(), texts, options);
  if (built.err != CL_SUCCESS) {
    clReleaseProgram(built.program);
    throw SetupError(std::string("clBuildProgram failed (") +
                         fibercl::cl_host::errorName(built.err) + ") for " + key + ":\n" +
                         built.log,
                     built.err);
  }
  programs_[key] = built.program;
  return built.program;
}

Kernel Session::kernel(cl_program program, const char *name) {
  cl_int err;
  cl_kernel k = clCreateKernel(program, name, &err);
  check(err, (std::string("clCreateKernel ") + name).c_str());
  return Kernel(k);
}

Buffer Session::makeBuffer(size_t bytes, const void *init) {
  cl_int err;
  cl_mem m = clCreateBuffer(cl_.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            bytes ? bytes : 4, const_cast<void *>(init), &err);
  check(err, "clCreateBuffer");
  return Buffer(m);
}

void Session::readBuffer(const Buffer &b, size_t bytes, void *out) {
  check(clEnqueueReadBuffer(cl_.queue(), b.get(), CL_TRUE, 0, bytes, out, 0, nullptr, nullptr),
        "clEnqueueReadBuffer");
}

LaunchResult Session::launch(const Kernel &k, size_t groups, size_t local, const Schedule &s) {
  if (s.setOccupancy)
    check(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_OCCUPANCY_FIBERCL, sizeof s.occupancy,
                              &s.occupancy),
          "clSetKernelExecInfo(OCCUPANCY)");
  if (s.setPolicy) {
    cl_uint policy = s.unfair ? CL_SCHEDULE_UNFAIR_FIBERCL : CL_SCHEDULE_FAIR_FIBERCL;
    check(
        clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_SCHEDULE_FIBERCL, sizeof policy, &policy),
        "clSetKernelExecInfo(SCHEDULE)");
  }
  if (s.seeded)
    check(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_SEED_FIBERCL, sizeof s.seed, &s.seed),
          "clSetKernelExecInfo(SEED)");

  LaunchResult r;
  size_t global = groups * local;
  cl_event done = nullptr;
  {
    StderrCapture capture;
    cl_int err = clEnqueueNDRangeKernel(cl_.queue(), k.get(), 1, nullptr, &global, &local, 0,
                                        nullptr, &done);
    if (err == CL_SUCCESS) {
      // A failed command may make clFinish report an error too; the event's
      // status is what says how the command ended.
      clFinish(cl_.queue());
      err = clGetEventInfo(done, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof r.status, &r.status,
                           nullptr);
      clReleaseEvent(done);
    }
    r.report = capture.finish();
    if (err != CL_SUCCESS)
      r.status = err;
  }
  if (!s.quiet && !r.report.empty())
    std::fputs(r.report.c_str(), stderr);
  if (r.status != CL_COMPLETE)
    r.kind = r.report.find("FiberCL: deadlock") != std::string::npos ? LaunchResult::Kind::Deadlock
                                                                     : LaunchResult::Kind::Failed;
  return r;
}

} // namespace corpus
