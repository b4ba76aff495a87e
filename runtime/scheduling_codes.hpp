// The cl_fibercl_scheduling codes (CL_SCHEDULE_*_FIBERCL, CL_ADMISSION_*_FIBERCL) of the
// executor's policies and admission orders, one table each: clSetKernelExecInfo checks
// and converts with them, clGetDeviceInfo reports with them.
#pragma once

#include <CL/cl_fibercl.h>

#include <iterator>
#include <optional>

#include "runtime/scheduling_names.hpp"

namespace fibercl::runtime {

template <typename E> struct CodedValue {
  E value;
  cl_uint code;
};

inline constexpr CodedValue<SchedulePolicy> kSchedulePolicyCodes[] = {
    {SchedulePolicy::Fair, CL_SCHEDULE_FAIR_FIBERCL},
    {SchedulePolicy::Unfair, CL_SCHEDULE_UNFAIR_FIBERCL},
};
inline constexpr CodedValue<AdmissionOrder> kAdmissionOrderCodes[] = {
    {AdmissionOrder::GroupId, CL_ADMISSION_GROUP_ID_FIBERCL},
    {AdmissionOrder::Reverse, CL_ADMISSION_REVERSE_FIBERCL},
    {AdmissionOrder::Random, CL_ADMISSION_RANDOM_FIBERCL},
};
// A policy or order without a code could not be chosen through the extension.
static_assert(std::size(kSchedulePolicyCodes) == std::size(kSchedulePolicies));
static_assert(std::size(kAdmissionOrderCodes) == std::size(kAdmissionOrders));

// The value whose code is `code`, if any.
template <typename E, size_t N>
std::optional<E> valueOfCode(const CodedValue<E> (&table)[N], cl_uint code) noexcept {
  for (const CodedValue<E> &entry : table)
    if (entry.code == code)
      return entry.value;
  return std::nullopt;
}

template <typename E, size_t N> cl_uint codeOf(const CodedValue<E> (&table)[N], E value) noexcept {
  for (const CodedValue<E> &entry : table)
    if (entry.value == value)
      return entry.code;
  return table[0].code;
}

} // namespace fibercl::runtime
