// TraceLog: accumulates the trace events of yielding launches per file.
#include "runtime/exec/trace_log.hpp"

#include <cstdio>

namespace fibercl::exec {

unsigned TraceLog::reserve(const std::string &path) {
  std::lock_guard<std::mutex> lk(m_);
  return ++files_[path].launches;
}

void TraceLog::append(const std::string &path, const std::string &events) noexcept {
  try {
    std::lock_guard<std::mutex> lk(m_);
    File &f = files_[path];
    if (!events.empty()) {
      if (!f.body.empty())
        f.body += ",\n";
      f.body += events;
    }
    if (FILE *out = std::fopen(path.c_str(), "w")) {
      std::fputs("[\n", out);
      std::fputs(f.body.c_str(), out);
      std::fputs("\n]\n", out);
      std::fclose(out);
    } else {
      std::fprintf(stderr, "FiberCL: cannot write trace file %s\n", path.c_str());
    }
  } catch (...) {
  }
}

} // namespace fibercl::exec
