// The Chrome trace-event files of an executor (FIBERCL_TRACE): every yielding launch
// that names a file appends its events as one trace "process" (pid = launch number
// for that file) and the whole file is rewritten, so it is always a valid JSON array
// that Perfetto / chrome://tracing open.
#pragma once

#include <map>
#include <mutex>
#include <string>

namespace fibercl::exec {

class TraceLog {
public:
  // Returns the launch number (pid) the next append for `path` will get.
  unsigned reserve(const std::string &path);
  // `events`: comma-separated JSON objects (no brackets), possibly empty.
  void append(const std::string &path, const std::string &events) noexcept;

private:
  struct File {
    unsigned launches = 0;
    std::string body;
  };
  std::mutex m_;
  std::map<std::string, File> files_;
};

} // namespace fibercl::exec
