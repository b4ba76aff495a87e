// Report (report.hpp): text without allocation, stderr through write().
#include "runtime/exec/report.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "runtime/exec/executor.hpp"

namespace fibercl::exec {

Report &Report::append(const char *s, size_t n) noexcept {
  while (n) {
    if (len_ == sizeof buf_)
      flush();
    size_t k = std::min(n, sizeof buf_ - len_);
    std::memcpy(buf_ + len_, s, k);
    len_ += k;
    s += k;
    n -= k;
  }
  return *this;
}

Report &Report::operator<<(const char *s) noexcept { return s ? append(s, std::strlen(s)) : *this; }

Report &Report::number(uint64_t v) noexcept {
  char digits[20];
  int n = 0;
  do {
    digits[n++] = char('0' + v % 10);
    v /= 10;
  } while (v);
  char out[20];
  for (int i = 0; i < n; ++i)
    out[i] = digits[n - 1 - i];
  return append(out, size_t(n));
}

Report &Report::hex(uintptr_t v) noexcept {
  *this << "0x";
  char out[16];
  size_t n = 0;
  int shift = 60;
  while (shift > 0 && !((v >> shift) & 0xf))
    shift -= 4;
  for (; shift >= 0; shift -= 4)
    out[n++] = "0123456789abcdef"[(v >> shift) & 0xf];
  return append(out, n);
}

Report &Report::operator<<(double v) noexcept { return format("%g", v); }

Report &Report::format(const char *fmt, ...) noexcept {
  char text[512];
  va_list ap;
  va_start(ap, fmt);
  int n = std::vsnprintf(text, sizeof text, fmt, ap);
  va_end(ap);
  if (n > 0)
    append(text, std::min(size_t(n), sizeof text - 1));
  return *this;
}

Report &Report::kernel(const char *name) noexcept { return *this << "kernel '" << name << "'"; }

Report &Report::group(const uint64_t id[3]) noexcept {
  return *this << "work-group (" << id[0] << "," << id[1] << "," << id[2] << ")";
}

Report &Report::group(const fcl_group_ctx *c) noexcept {
  const uint64_t none[3] = {0, 0, 0};
  return group(c ? c->group_id : none);
}

Report &Report::group(uint64_t linear) noexcept { return *this << "work-group " << linear; }

Report &Report::item(uint64_t x, uint64_t y, uint64_t z) noexcept {
  return *this << "work-item (" << x << "," << y << "," << z << ")";
}

Report &Report::at(const char *where) noexcept {
  if (where && *where)
    *this << " (" << where << ")";
  return *this;
}

Report &Report::reproduce(const Scheduling &S) noexcept {
  try {
    *this << "  reproduce with: " << reproduceEnvironment(S) << "\n";
  } catch (...) {
  }
  return *this;
}

void Report::flush() noexcept {
  size_t done = 0;
  while (done < len_) {
    ssize_t n = write(STDERR_FILENO, buf_ + done, len_ - done);
    if (n <= 0)
      break;
    done += size_t(n);
  }
  len_ = 0;
}

void Report::emit() noexcept { flush(); }

std::string reproduceEnvironment(const Scheduling &S) {
  std::string env = std::string("FIBERCL_SCHEDULE=") + Scheduling::nameOf(S.policy) +
                    " FIBERCL_OCCUPANCY=" + std::to_string(S.occupancy);
  if (S.admission != Scheduling::Admission::GroupId)
    env += std::string(" FIBERCL_ADMISSION=") + Scheduling::nameOf(S.admission);
  if (S.deterministic) // parallel runs have no seed to give: FIBERCL_SEED selects
    env += " FIBERCL_SEED=" + std::to_string(S.seed); // deterministic mode
  return env;
}

std::string jsonEscape(const std::string &s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') {
      o += '\\';
      o += c;
    } else if (uint8_t(c) < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += c;
    }
  }
  return o;
}

} // namespace fibercl::exec
