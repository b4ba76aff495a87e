// Contexts on delegated devices: properties and device lists translated both ways.
#include "delegate/forward.hpp"
#include "delegate/platforms.hpp"

namespace fibercl::delegate {
namespace {

// The vendor's properties for the application's: CL_CONTEXT_PLATFORM becomes the
// vendor's platform. Sets `platform` to the one named (or leaves it).
cl_int translateProperties(const cl_context_properties *props,
                           std::vector<cl_context_properties> &out, Platform *&platform) {
  if (!props)
    return CL_SUCCESS;
  for (const cl_context_properties *p = props; *p; p += 2) {
    cl_context_properties value = p[1];
    if (p[0] == CL_CONTEXT_PLATFORM) {
      auto *pl = as<Platform>(reinterpret_cast<void *>(value), Tag::DelegatedPlatform);
      if (!pl)
        return CL_INVALID_PLATFORM;
      platform = pl;
      value = reinterpret_cast<cl_context_properties>(pl->real);
    }
    out.push_back(p[0]);
    out.push_back(value);
  }
  out.push_back(0);
  return CL_SUCCESS;
}

std::vector<cl_context_properties> copyProperties(const cl_context_properties *props) {
  std::vector<cl_context_properties> out;
  if (!props)
    return out;
  const cl_context_properties *p = props;
  for (; *p; p += 2)
    out.insert(out.end(), {p[0], p[1]});
  out.push_back(0);
  return out;
}

cl_context wrapContext(cl_context real, Platform *p, const cl_context_properties *props) {
  auto *c = wrap<Context>(Tag::DelegatedContext, real, p);
  c->properties = copyProperties(props);
  cl_uint n = 0;
  p->vendor().clGetContextInfo(real, CL_CONTEXT_NUM_DEVICES, sizeof n, &n, nullptr);
  std::vector<cl_device_id> ids(n);
  if (n)
    p->vendor().clGetContextInfo(real, CL_CONTEXT_DEVICES, n * sizeof(cl_device_id), ids.data(),
                                 nullptr);
  for (cl_device_id id : ids)
    if (Obj *d = deviceFor(p, id)) {
      c->devices.push_back(d);
      hold(d);
    }
  return reinterpret_cast<cl_context>(c);
}

} // namespace

cl_context CL_API_CALL clCreateContext(const cl_context_properties *properties, cl_uint num_devices,
                                       const cl_device_id *devices,
                                       void(CL_CALLBACK *pfn_notify)(const char *, const void *,
                                                                     size_t, void *),
                                       void *user_data, cl_int *errcode_ret) {
  if (!devices || num_devices == 0 || (!pfn_notify && user_data))
    return withError<cl_context>(errcode_ret, CL_INVALID_VALUE, nullptr);
  std::vector<cl_device_id> real;
  Platform *platform = nullptr;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Obj *d = as(devices[i], Tag::DelegatedDevice);
    if (!d || (platform && d->platform != platform))
      return withError<cl_context>(errcode_ret, CL_INVALID_DEVICE,
                                   nullptr); // one vendor per context
    platform = d->platform;
    real.push_back(static_cast<cl_device_id>(d->real));
  }
  std::vector<cl_context_properties> props;
  Platform *named = platform;
  if (cl_int err = translateProperties(properties, props, named))
    return withError<cl_context>(errcode_ret, err, nullptr);
  if (named != platform)
    return withError<cl_context>(errcode_ret, CL_INVALID_DEVICE, nullptr);
  cl_int err = CL_SUCCESS;
  cl_context c =
      platform->vendor().clCreateContext(props.empty() ? nullptr : props.data(), num_devices,
                                         real.data(), pfn_notify, user_data, &err);
  if (!c)
    return withError<cl_context>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(errcode_ret, CL_SUCCESS, wrapContext(c, platform, properties));
}

cl_context CL_API_CALL
clCreateContextFromType(const cl_context_properties *properties, cl_device_type device_type,
                        void(CL_CALLBACK *pfn_notify)(const char *, const void *, size_t, void *),
                        void *user_data, cl_int *errcode_ret) {
  if (!pfn_notify && user_data)
    return withError<cl_context>(errcode_ret, CL_INVALID_VALUE, nullptr);
  std::vector<cl_context_properties> props;
  Platform *platform = nullptr;
  if (cl_int err = translateProperties(properties, props, platform))
    return withError<cl_context>(errcode_ret, err, nullptr);
  if (!platform) { // the loader sent it here: the first delegated platform is the default
    if (delegatedPlatforms().empty())
      return withError<cl_context>(errcode_ret, CL_INVALID_PLATFORM, nullptr);
    platform = delegatedPlatforms().front();
    if (props.empty())
      props = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform->real), 0};
  }
  cl_int err = CL_SUCCESS;
  cl_context c = platform->vendor().clCreateContextFromType(props.data(), device_type, pfn_notify,
                                                            user_data, &err);
  if (!c)
    return withError<cl_context>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(errcode_ret, CL_SUCCESS, wrapContext(c, platform, properties));
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return CL_INVALID_CONTEXT;
  appRetain(c);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return CL_INVALID_CONTEXT;
  appRelease(c);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param, size_t size,
                                    void *value, size_t *size_ret) {
  auto *c = as<Context>(context, Tag::DelegatedContext);
  if (!c)
    return CL_INVALID_CONTEXT;
  switch (param) {
  case CL_CONTEXT_REFERENCE_COUNT:
    return answerScalar<cl_uint>(c->refCount.load(), size, value, size_ret);
  case CL_CONTEXT_DEVICES:
    return answer(c->devices.data(), c->devices.size() * sizeof(cl_device_id), size, value,
                  size_ret);
  case CL_CONTEXT_PROPERTIES:
    return answer(c->properties.data(), c->properties.size() * sizeof(cl_context_properties), size,
                  value, size_ret);
  default:
    return c->vendor().clGetContextInfo(static_cast<cl_context>(c->real), param, size, value,
                                        size_ret);
  }
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                  void(CL_CALLBACK *pfn_notify)(cl_context, void *),
                                                  void *user_data) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return CL_INVALID_CONTEXT;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  auto fn = c->vendor().clSetContextDestructorCallback;
  if (!fn)
    return CL_INVALID_OPERATION;
  auto *t = Trampoline<cl_context>::make(pfn_notify, user_data, c);
  cl_int err = fn(static_cast<cl_context>(c->real), &Trampoline<cl_context>::call, t);
  if (err != CL_SUCCESS) {
    unhold(c);
    delete t;
  }
  return err;
}

} // namespace fibercl::delegate
