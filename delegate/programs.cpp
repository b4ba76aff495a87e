// Programs on delegated devices: sources get the primitives library injected
// (source_injection.hpp); device lists, input programs and callbacks are translated.
#include "delegate/forward.hpp"
#include "delegate/source_injection.hpp"

namespace fibercl::delegate {
namespace {

cl_program wrapProgram(cl_program real, cl_int err, Obj *context, cl_int *errcode_ret) {
  if (!real)
    return withError<cl_program>(errcode_ret, err ? err : CL_OUT_OF_HOST_MEMORY, nullptr);
  return withError(errcode_ret, err,
                   reinterpret_cast<cl_program>(
                       wrap<Program>(Tag::DelegatedProgram, real, context->platform, context)));
}

// The application's device list in vendor handles; false if an entry is not one of
// the delegated devices.
bool realDevices(cl_uint n, const cl_device_id *list, std::vector<cl_device_id> &out) {
  for (cl_uint i = 0; list && i < n; ++i) {
    Obj *d = as(list[i], Tag::DelegatedDevice);
    if (!d)
      return false;
    out.push_back(static_cast<cl_device_id>(d->real));
  }
  return true;
}

// A build/compile callback: the vendor's program handle becomes the application's.
struct BuildNotify {
  void(CL_CALLBACK *pfn)(cl_program, void *);
  void *userData;
  Obj *context; // held; for clLinkProgram, whose program may not be wrapped yet
  static void CL_CALLBACK call(cl_program real, void *self) {
    auto *n = static_cast<BuildNotify *>(self);
    Obj *p = findWrapper(real);
    if (!p) // clLinkProgram's callback may come before clLinkProgram returns
      p = wrap<Program>(Tag::DelegatedProgram, real, n->context->platform, n->context);
    n->pfn(reinterpret_cast<cl_program>(p), n->userData);
    unhold(n->context);
    delete n;
  }
};

BuildNotify *notifyFor(void(CL_CALLBACK *pfn)(cl_program, void *), void *userData, Obj *context) {
  if (!pfn)
    return nullptr;
  hold(context);
  return new BuildNotify{pfn, userData, context};
}

void dropNotify(BuildNotify *n) {
  if (n) {
    unhold(n->context);
    delete n;
  }
}

} // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char **strings, const size_t *lengths,
                                                 cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (count == 0 || !strings)
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (!strings[i])
      return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
    if (lengths && lengths[i])
      source.append(strings[i], lengths[i]);
    else
      source.append(strings[i]);
  }
  std::string injected = injectFiberclHeaders(source);
  const char *text = injected.c_str();
  cl_int err = CL_SUCCESS;
  cl_program p = c->vendor().clCreateProgramWithSource(static_cast<cl_context>(c->real), 1, &text,
                                                       nullptr, &err);
  cl_program out = wrapProgram(p, err, c, errcode_ret);
  if (out)
    reinterpret_cast<Program *>(out)->source = std::move(source);
  return out;
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id *device_list,
                                                 const size_t *lengths,
                                                 const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::vector<cl_device_id> devices;
  if (!device_list || num_devices == 0)
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (!realDevices(num_devices, device_list, devices))
    return withError<cl_program>(errcode_ret, CL_INVALID_DEVICE, nullptr);
  cl_int err = CL_SUCCESS;
  cl_program p =
      c->vendor().clCreateProgramWithBinary(static_cast<cl_context>(c->real), num_devices,
                                            devices.data(), lengths, binaries, binary_status, &err);
  return wrapProgram(p, err, c, errcode_ret);
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id *device_list,
                                                         const char *kernel_names,
                                                         cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::vector<cl_device_id> devices;
  if (!device_list || num_devices == 0)
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (!realDevices(num_devices, device_list, devices))
    return withError<cl_program>(errcode_ret, CL_INVALID_DEVICE, nullptr);
  auto fn = c->vendor().clCreateProgramWithBuiltInKernels;
  if (!fn)
    return withError<cl_program>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  cl_int err = CL_SUCCESS;
  cl_program p =
      fn(static_cast<cl_context>(c->real), num_devices, devices.data(), kernel_names, &err);
  return wrapProgram(p, err, c, errcode_ret);
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                             cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  auto fn = c->vendor().clCreateProgramWithIL;
  if (!fn)
    return withError<cl_program>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  cl_int err = CL_SUCCESS;
  cl_program p = fn(static_cast<cl_context>(c->real), il, length, &err);
  return wrapProgram(p, err, c, errcode_ret);
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  appRetain(p);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  appRelease(p);
  return CL_SUCCESS;
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                  const cl_device_id *device_list, const char *options,
                                  void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                  void *user_data) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  if ((num_devices > 0) != (device_list != nullptr) || (!pfn_notify && user_data))
    return CL_INVALID_VALUE;
  std::vector<cl_device_id> devices;
  if (!realDevices(num_devices, device_list, devices))
    return CL_INVALID_DEVICE;
  BuildNotify *n = notifyFor(pfn_notify, user_data, p->parents[0]);
  cl_int err = p->vendor().clBuildProgram(static_cast<cl_program>(p->real), num_devices,
                                          devices.empty() ? nullptr : devices.data(), options,
                                          n ? &BuildNotify::call : nullptr, n);
  if (err != CL_SUCCESS && err != CL_BUILD_PROGRAM_FAILURE)
    dropNotify(n); // not called (the specification: only once the build was started)
  return err;
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                    const cl_device_id *device_list, const char *options,
                                    cl_uint num_input_headers, const cl_program *input_headers,
                                    const char **header_include_names,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                    void *user_data) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  if ((num_devices > 0) != (device_list != nullptr) || (!pfn_notify && user_data))
    return CL_INVALID_VALUE;
  std::vector<cl_device_id> devices;
  if (!realDevices(num_devices, device_list, devices))
    return CL_INVALID_DEVICE;
  std::vector<cl_program> headers;
  for (cl_uint i = 0; input_headers && i < num_input_headers; ++i) {
    Obj *h = as(input_headers[i], Tag::DelegatedProgram);
    if (!h)
      return CL_INVALID_PROGRAM;
    headers.push_back(static_cast<cl_program>(h->real));
  }
  auto fn = p->vendor().clCompileProgram;
  if (!fn)
    return CL_INVALID_OPERATION;
  BuildNotify *n = notifyFor(pfn_notify, user_data, p->parents[0]);
  cl_int err =
      fn(static_cast<cl_program>(p->real), num_devices, devices.empty() ? nullptr : devices.data(),
         options, num_input_headers, input_headers ? headers.data() : nullptr, header_include_names,
         n ? &BuildNotify::call : nullptr, n);
  if (err != CL_SUCCESS && err != CL_COMPILE_PROGRAM_FAILURE)
    dropNotify(n);
  return err;
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                     const cl_device_id *device_list, const char *options,
                                     cl_uint num_input_programs, const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                     void *user_data, cl_int *errcode_ret) {
  Obj *c = as(context, Tag::DelegatedContext);
  if (!c)
    return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if ((num_devices > 0) != (device_list != nullptr) || (!pfn_notify && user_data) ||
      num_input_programs == 0 || !input_programs)
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  std::vector<cl_device_id> devices;
  if (!realDevices(num_devices, device_list, devices))
    return withError<cl_program>(errcode_ret, CL_INVALID_DEVICE, nullptr);
  std::vector<cl_program> inputs;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    Obj *in = as(input_programs[i], Tag::DelegatedProgram);
    if (!in)
      return withError<cl_program>(errcode_ret, CL_INVALID_PROGRAM, nullptr);
    inputs.push_back(static_cast<cl_program>(in->real));
  }
  auto fn = c->vendor().clLinkProgram;
  if (!fn)
    return withError<cl_program>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  BuildNotify *n = notifyFor(pfn_notify, user_data, c);
  cl_int err = CL_SUCCESS;
  cl_program p =
      fn(static_cast<cl_context>(c->real), num_devices, devices.empty() ? nullptr : devices.data(),
         options, num_input_programs, inputs.data(), n ? &BuildNotify::call : nullptr, n, &err);
  if (!p)
    dropNotify(n);
  return wrapProgram(p, err, c, errcode_ret);
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param, size_t size,
                                    void *value, size_t *size_ret) {
  auto *p = as<Program>(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  auto real = static_cast<cl_program>(p->real);
  switch (param) {
  case CL_PROGRAM_CONTEXT:
    return answerScalar(reinterpret_cast<cl_context>(p->parents[0]), size, value, size_ret);
  case CL_PROGRAM_REFERENCE_COUNT:
    return answerScalar<cl_uint>(p->refCount.load(), size, value, size_ret);
  case CL_PROGRAM_SOURCE:
    if (p->source.empty())
      break; // not made from source: the vendor's answer ("")
    return answer(p->source.c_str(), p->source.size() + 1, size, value, size_ret);
  case CL_PROGRAM_DEVICES: {
    std::vector<unsigned char> bytes;
    if (cl_int err = vendorBytes(
            [&](size_t n, void *v, size_t *r) {
              return p->vendor().clGetProgramInfo(real, param, n, v, r);
            },
            bytes))
      return err;
    auto *ids = reinterpret_cast<cl_device_id *>(bytes.data());
    for (size_t i = 0; i < bytes.size() / sizeof(cl_device_id); ++i)
      ids[i] = reinterpret_cast<cl_device_id>(deviceFor(p->platform, ids[i]));
    return answer(bytes.data(), bytes.size(), size, value, size_ret);
  }
  default:
    break;
  }
  return p->vendor().clGetProgramInfo(real, param, size, value, size_ret);
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                         cl_program_build_info param, size_t size, void *value,
                                         size_t *size_ret) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  Obj *d = as(device, Tag::DelegatedDevice);
  if (!d)
    return CL_INVALID_DEVICE;
  return p->vendor().clGetProgramBuildInfo(static_cast<cl_program>(p->real),
                                           static_cast<cl_device_id>(d->real), param, size, value,
                                           size_ret);
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                               void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                               void *user_data) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  if (!pfn_notify)
    return CL_INVALID_VALUE;
  auto fn = p->vendor().clSetProgramReleaseCallback;
  if (!fn)
    return CL_INVALID_OPERATION;
  auto *t = Trampoline<cl_program>::make(pfn_notify, user_data, p);
  cl_int err = fn(static_cast<cl_program>(p->real), &Trampoline<cl_program>::call, t);
  if (err != CL_SUCCESS) {
    unhold(p);
    delete t;
  }
  return err;
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                      size_t spec_size, const void *spec_value) {
  Obj *p = as(program, Tag::DelegatedProgram);
  if (!p)
    return CL_INVALID_PROGRAM;
  auto fn = p->vendor().clSetProgramSpecializationConstant;
  return fn ? fn(static_cast<cl_program>(p->real), spec_id, spec_size, spec_value)
            : CL_INVALID_OPERATION;
}

} // namespace fibercl::delegate
