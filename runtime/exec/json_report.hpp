// FIBERCL_REPORT: each report of a failing launch -- deadlock, checked mode's access
// checks, barrier divergence -- appended to the file as one JSON object per line, for
// tools (the words on stderr are for people). Cold paths only: it allocates.
#pragma once

#include <cstdint>
#include <string>

namespace fibercl::exec {

class JsonReport {
public:
  // {"report":"<kind>", ...
  explicit JsonReport(const char *kind);
  JsonReport &field(const char *name, const std::string &value);
  JsonReport &field(const char *name, const char *value) { return field(name, std::string(value)); }
  JsonReport &number(const char *name, int64_t value);
  JsonReport &flag(const char *name, bool value);
  JsonReport &ids(const char *name, uint64_t x, uint64_t y, uint64_t z); // [x,y,z]
  JsonReport &json(const char *name, const std::string &value);          // already JSON

  // Appends the object as a line to `path` (empty: $FIBERCL_REPORT; unset: nowhere).
  // Never throws.
  void append(const std::string &path = std::string()) noexcept;

private:
  std::string text_;
};

} // namespace fibercl::exec
