// Entry points for contexts.
#include <algorithm>

#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/platform.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

// Validates a context property list and returns a copy (with its terminating 0),
// or an empty vector for NULL.
std::vector<cl_context_properties> contextProperties(const cl_context_properties *props) {
  std::vector<cl_context_properties> out;
  if (!props)
    return out;
  bool seenPlatform = false, seenSync = false;
  for (const cl_context_properties *p = props; *p; p += 2) {
    switch (p[0]) {
    case CL_CONTEXT_PLATFORM:
      // CL_INVALID_PROPERTY if the same property name is specified more than once.
      check(seenPlatform, CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
      seenPlatform = true;
      // CL_INVALID_PLATFORM if platform value specified in properties is not a
      // valid platform.
      check(!Platform::fromHandle(reinterpret_cast<cl_platform_id>(p[1])), CL_INVALID_PLATFORM,
            "CL_CONTEXT_PLATFORM is not a valid platform");
      break;
    case CL_CONTEXT_INTEROP_USER_SYNC:
      check(seenSync, CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
      seenSync = true;
      // CL_INVALID_PROPERTY if the value specified for a supported property name is
      // not valid.
      check(p[1] != CL_TRUE && p[1] != CL_FALSE, CL_INVALID_PROPERTY,
            "CL_CONTEXT_INTEROP_USER_SYNC must be CL_TRUE or CL_FALSE");
      break;
    default:
      // CL_INVALID_PROPERTY if context property name in properties is not a
      // supported property name.
      throw Error(CL_INVALID_PROPERTY, "unsupported context property");
    }
    out.push_back(p[0]);
    out.push_back(p[1]);
  }
  out.push_back(0);
  return out;
}

} // namespace

extern "C" {

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *, const void *,
                                                                     size_t, void *),
                                       void *user_data, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    auto props = contextProperties(properties);
    // CL_INVALID_VALUE if devices is NULL.
    check(!devices, CL_INVALID_VALUE, "devices is NULL");
    // CL_INVALID_VALUE if num_devices is equal to zero.
    check(num_devices == 0, CL_INVALID_VALUE, "num_devices is 0");
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    check(!pfn_notify && user_data, CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not");
    // CL_INVALID_DEVICE if any device in devices is not a valid device.
    std::vector<Device *> list;
    for (cl_uint i = 0; i < num_devices; ++i) {
      Device *d = &obj<Device>(devices[i], "devices[i]");
      if (std::find(list.begin(), list.end(), d) == list.end()) // a duplicate counts once
        list.push_back(d);
    }
    return give(make<Context>(std::move(list), std::move(props), pfn_notify, user_data));
  });
}

cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                        void *user_data, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    auto props = contextProperties(properties);
    // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
    check(!pfn_notify && user_data, CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not");
    // CL_INVALID_DEVICE_TYPE if device_type is not a valid value.
    constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                     CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                     CL_DEVICE_TYPE_CUSTOM;
    check(device_type == 0 || (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~known)),
          CL_INVALID_DEVICE_TYPE, "device_type");
    // CL_DEVICE_NOT_FOUND if no devices that match device_type and property values
    // specified in properties are currently available.
    // The devices of CL_CONTEXT_PLATFORM's platform, or of FiberCL's.
    Platform *platform = &Platform::get();
    for (size_t i = 0; i + 1 < props.size(); i += 2)
      if (props[i] == CL_CONTEXT_PLATFORM)
        platform = Platform::fromHandle(reinterpret_cast<cl_platform_id>(props[i + 1]));
    std::vector<Device *> found = platform->devicesOfType(device_type);
    check(found.empty(), CL_DEVICE_NOT_FOUND, "the platform has no device of that type");
    return give(make<Context>(std::move(found), std::move(props), pfn_notify, user_data));
  });
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  return call(__func__, [&] { obj<Context>(context, "context").retain(); });
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return call(__func__, [&] { obj<Context>(context, "context").release(); });
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context &ctx = obj<Context>(context, "context");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_CONTEXT_REFERENCE_COUNT:
      return out.scalar<cl_uint>(ctx.refs());
    case CL_CONTEXT_NUM_DEVICES:
      return out.scalar<cl_uint>(cl_uint(ctx.devices().size()));
    case CL_CONTEXT_DEVICES: {
      std::vector<cl_device_id> ids;
      for (Device *d : ctx.devices())
        ids.push_back(d->handle());
      return out.array(ids);
    }
    case CL_CONTEXT_PROPERTIES:
      return out.array(ctx.properties());
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                  void(CL_CALLBACK *pfn_notify)(cl_context, void *),
                                                  void *user_data) {
  return call(__func__, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context &ctx = obj<Context>(context, "context");
    // CL_INVALID_VALUE if pfn_notify is NULL.
    check(!pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
    ctx.addDestructorCallback(pfn_notify, user_data);
  });
}

} // extern "C"
