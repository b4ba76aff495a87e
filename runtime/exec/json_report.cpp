// JsonReport (json_report.hpp).
#include "runtime/exec/json_report.hpp"

#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "runtime/exec/report.hpp"

namespace fibercl::exec {

JsonReport::JsonReport(const char *kind) { text_ = "{\"report\":\"" + jsonEscape(kind) + "\""; }

JsonReport &JsonReport::field(const char *name, const std::string &value) {
  return json(name, "\"" + jsonEscape(value) + "\"");
}

JsonReport &JsonReport::number(const char *name, int64_t value) {
  return json(name, std::to_string(value));
}

JsonReport &JsonReport::flag(const char *name, bool value) {
  return json(name, value ? "true" : "false");
}

JsonReport &JsonReport::ids(const char *name, uint64_t x, uint64_t y, uint64_t z) {
  return json(name,
              "[" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + "]");
}

JsonReport &JsonReport::json(const char *name, const std::string &value) {
  text_ += ",\"" + jsonEscape(name) + "\":" + value;
  return *this;
}

void JsonReport::append(const std::string &path) noexcept {
  try {
    std::string to = path;
    if (to.empty()) {
      const char *env = std::getenv("FIBERCL_REPORT");
      if (!env || !*env)
        return;
      to = env;
    }
    std::string line = text_ + "}\n";
    // Groups of a launch report from several threads: one line at a time.
    static std::mutex m;
    std::lock_guard<std::mutex> hold(m);
    if (FILE *f = std::fopen(to.c_str(), "a")) {
      std::fputs(line.c_str(), f);
      std::fclose(f);
    }
  } catch (...) {
  }
}

} // namespace fibercl::exec
