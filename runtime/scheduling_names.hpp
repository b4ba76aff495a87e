// The scheduling policies and admission orders with their names, one table each: what
// FIBERCL_SCHEDULE and FIBERCL_ADMISSION accept, what reports print, and what the
// `fibercl` tool's --schedule and --admission take and its --help lists. Header-only
// and free of the rest of the runtime, so the tool (which reaches FiberCL only through
// the ICD loader) reads the same tables.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace fibercl {

enum class SchedulePolicy { Fair, Unfair };
enum class AdmissionOrder { GroupId, Reverse, Random };

// A value, its name and what it means (for --help). The first entry of a table is the
// default.
template <typename E> struct NamedValue {
  E value;
  const char *name;
  const char *help;
};

inline constexpr NamedValue<SchedulePolicy> kSchedulePolicies[] = {
    {SchedulePolicy::Fair, "fair", "every occupant group is eventually resumed"},
    {SchedulePolicy::Unfair, "unfair", "a group that yields keeps its worker (what GPUs do)"},
};
inline constexpr NamedValue<AdmissionOrder> kAdmissionOrders[] = {
    {AdmissionOrder::GroupId, "id", "groups become occupant in the order of their ids"},
    {AdmissionOrder::Reverse, "reverse", "in the reverse order"},
    {AdmissionOrder::Random, "random", "in an order drawn from the seed"},
};

template <typename E, size_t N>
constexpr const char *nameIn(const NamedValue<E> (&table)[N], E value) noexcept {
  for (const NamedValue<E> &entry : table)
    if (entry.value == value)
      return entry.name;
  return "?";
}

// Sets `out` to the value called `name`; false (and `out` untouched) if none is.
template <typename E, size_t N>
bool valueIn(const NamedValue<E> (&table)[N], std::string_view name, E &out) noexcept {
  for (const NamedValue<E> &entry : table)
    if (name == entry.name) {
      out = entry.value;
      return true;
    }
  return false;
}

// "a, b or c", for messages.
template <typename E, size_t N> std::string namesIn(const NamedValue<E> (&table)[N]) {
  std::string names;
  for (size_t i = 0; i < N; ++i)
    names += std::string(i == 0 ? "" : i + 1 == N ? " or " : ", ") + table[i].name;
  return names;
}

} // namespace fibercl
