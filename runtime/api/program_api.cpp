// Entry points for program objects: creation, compile/link/build, queries.
#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/platform.hpp"
#include "runtime/program.hpp"

#include <cstring>
#include <sstream>

using namespace fibercl;
using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

// CL_INVALID_VALUE if device_list is NULL and num_devices is greater than zero, or
// if device_list is not NULL and num_devices is zero.
// CL_INVALID_DEVICE if any device in device_list is not in the list of devices
// associated with the program (or context).
void checkDeviceList(const Context &ctx, cl_uint num_devices, const cl_device_id *device_list) {
  check(!device_list && num_devices > 0, CL_INVALID_VALUE,
        "device_list is NULL but num_devices > 0");
  check(device_list && num_devices == 0, CL_INVALID_VALUE,
        "device_list is not NULL but num_devices is 0");
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device &d = obj<Device>(device_list[i], "device_list[i]");
    check(!ctx.hasDevice(d), CL_INVALID_DEVICE, "a device is not in the context");
  }
}

template <class Notify> void checkNotify(Notify pfn_notify, void *user_data) {
  // CL_INVALID_VALUE if pfn_notify is NULL but user_data is not NULL.
  check(!pfn_notify && user_data, CL_INVALID_VALUE, "pfn_notify is NULL but user_data is not");
}

std::string optionString(const char *options) { return options ? options : ""; }

bool hasOption(const std::string &options, const char *name) {
  std::istringstream in(options);
  std::string word;
  while (in >> word)
    if (word == name)
      return true;
  return false;
}

cl_program_binary_type binaryType(compiler::BinaryKind kind) {
  switch (kind) {
  case compiler::BinaryKind::CompiledObject:
    return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
  case compiler::BinaryKind::Library:
    return CL_PROGRAM_BINARY_TYPE_LIBRARY;
  case compiler::BinaryKind::Executable:
    return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
  default:
    return CL_PROGRAM_BINARY_TYPE_NONE;
  }
}

} // namespace

extern "C" {

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char **strings, const size_t *lengths,
                                                 cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context &ctx = obj<Context>(context, "context");
    // CL_INVALID_VALUE if count is zero or if strings or any entry in strings is NULL.
    check(count == 0, CL_INVALID_VALUE, "count is 0");
    check(!strings, CL_INVALID_VALUE, "strings is NULL");
    std::string source;
    for (cl_uint i = 0; i < count; ++i) {
      check(!strings[i], CL_INVALID_VALUE, "an entry in strings is NULL");
      // A length of 0 (or no lengths) means the string is null-terminated.
      if (lengths && lengths[i])
        source.append(strings[i], lengths[i]);
      else
        source.append(strings[i]);
    }
    return give(make<Program>(ctx, std::move(source)));
  });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id *device_list,
                                                 const size_t *lengths,
                                                 const unsigned char **binaries,
                                                 cl_int *binary_status, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context &ctx = obj<Context>(context, "context");
    // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
    check(!device_list || num_devices == 0, CL_INVALID_VALUE,
          "device_list is NULL or num_devices is 0");
    // CL_INVALID_DEVICE if any device in device_list is not in the list of devices
    // associated with context.
    checkDeviceList(ctx, num_devices, device_list);
    // CL_INVALID_VALUE if lengths or binaries is NULL or if any entry in lengths[i]
    // is zero or binaries[i] is NULL.
    check(!lengths || !binaries, CL_INVALID_VALUE, "lengths or binaries is NULL");
    bool bad = false;
    for (cl_uint i = 0; i < num_devices; ++i) {
      cl_int status = CL_SUCCESS;
      if (lengths[i] == 0 || !binaries[i])
        status = CL_INVALID_VALUE;
      else if (compiler::inspect(binaries[i], lengths[i]) == compiler::BinaryKind::None)
        status = CL_INVALID_BINARY;
      if (binary_status)
        binary_status[i] = status;
      bad |= status != CL_SUCCESS;
      if (status == CL_INVALID_VALUE)
        throw Error(CL_INVALID_VALUE, "a binary is NULL or empty");
    }
    // CL_INVALID_BINARY if an invalid program binary was encountered for any device.
    check(bad, CL_INVALID_BINARY, "not a FiberCL binary");
    compiler::Binary binary;
    binary.kind = compiler::inspect(binaries[0], lengths[0]);
    binary.bytes.assign(binaries[0], binaries[0] + lengths[0]);
    return give(make<Program>(ctx, std::move(binary)));
  });
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id *device_list,
                                                         const char *kernel_names,
                                                         cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_program {
    Context &ctx = obj<Context>(context, "context");
    // CL_INVALID_VALUE if device_list is NULL or num_devices is zero.
    check(!device_list || num_devices == 0, CL_INVALID_VALUE,
          "device_list is NULL or num_devices is 0");
    checkDeviceList(ctx, num_devices, device_list);
    // CL_INVALID_VALUE if kernel_names is NULL or kernel_names contains a kernel name
    // that is not supported by any of the devices in device_list.
    throw Error(CL_INVALID_VALUE, "the device has no built-in kernels");
  });
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void *il, size_t length,
                                             cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&]() -> cl_program {
    Context &ctx = obj<Context>(context, "context");
    // CL_INVALID_VALUE if il is NULL or if length is zero, or if the length-byte
    // memory pointed to by il does not contain well-formed intermediate language
    // input (SPIR-V is the only one).
    check(!il || length == 0, CL_INVALID_VALUE, "il is NULL or length is 0");
    check(!compiler::isSpirv(il, length), CL_INVALID_VALUE, "il is not a SPIR-V module");
    return give(
        make<Program>(ctx, Program::IL{std::string(static_cast<const char *>(il), length)}));
  });
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return call(__func__, [&] { obj<Program>(program, "program").retain(); });
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return call(__func__, [&] { obj<Program>(program, "program").release(); });
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                  const cl_device_id *device_list, const char *options,
                                  void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                  void *user_data) {
  return call(__func__, [&] {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    Program &p = obj<Program>(program, "program");
    checkDeviceList(p.context(), num_devices, device_list);
    checkNotify(pfn_notify, user_data);
    // The build is synchronous; the callback runs when it is over, either way.
    struct Notify {
      decltype(pfn_notify) fn;
      cl_program program;
      void *userData;
      ~Notify() {
        if (fn)
          fn(program, userData);
      }
    } notify{pfn_notify, program, user_data};
    p.build(optionString(options));
  });
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                    const cl_device_id *device_list, const char *options,
                                    cl_uint num_input_headers, const cl_program *input_headers,
                                    const char **header_include_names,
                                    void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                    void *user_data) {
  return call(__func__, [&] {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    Program &p = obj<Program>(program, "program");
    checkDeviceList(p.context(), num_devices, device_list);
    // CL_INVALID_VALUE if num_input_headers is zero and header_include_names or
    // input_headers are not NULL or if num_input_headers is not zero and
    // header_include_names or input_headers are NULL.
    check(num_input_headers == 0 && (header_include_names || input_headers), CL_INVALID_VALUE,
          "headers given but num_input_headers is 0");
    check(num_input_headers != 0 && (!header_include_names || !input_headers), CL_INVALID_VALUE,
          "num_input_headers > 0 but headers are NULL");
    checkNotify(pfn_notify, user_data);
    std::vector<compiler::Header> headers;
    for (cl_uint i = 0; i < num_input_headers; ++i) {
      Program &h = obj<Program>(input_headers[i], "input_headers[i]");
      check(!header_include_names[i], CL_INVALID_VALUE, "a header include name is NULL");
      headers.push_back({header_include_names[i], h.source()});
    }
    struct Notify {
      decltype(pfn_notify) fn;
      cl_program program;
      void *userData;
      ~Notify() {
        if (fn)
          fn(program, userData);
      }
    } notify{pfn_notify, program, user_data};
    p.compile(optionString(options), headers);
  });
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                     const cl_device_id *device_list, const char *options,
                                     cl_uint num_input_programs, const cl_program *input_programs,
                                     void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                     void *user_data, cl_int *errcode_ret) {
  cl_int linkFailure = CL_SUCCESS;
  cl_program result = create(__func__, errcode_ret, [&] {
    // CL_INVALID_CONTEXT if context is not a valid context.
    Context &ctx = obj<Context>(context, "context");
    checkDeviceList(ctx, num_devices, device_list);
    // CL_INVALID_VALUE if num_input_programs is zero or input_programs is NULL (or
    // input_programs is given with num_input_programs zero).
    check(num_input_programs == 0 || !input_programs, CL_INVALID_VALUE, "no input programs");
    // CL_INVALID_PROGRAM if programs specified in input_programs are not valid.
    std::vector<Program *> inputs;
    for (cl_uint i = 0; i < num_input_programs; ++i) {
      Program &in = obj<Program>(input_programs[i], "input_programs[i]");
      // CL_INVALID_OPERATION if the rules for devices containing compiled binaries
      // or libraries as described in input_programs argument are not followed.
      auto kind = in.binaryKind();
      check(kind != compiler::BinaryKind::CompiledObject && kind != compiler::BinaryKind::Library,
            CL_INVALID_OPERATION, "an input program is not a compiled object or library");
      inputs.push_back(&in);
    }
    checkNotify(pfn_notify, user_data);
    std::string opts = optionString(options);
    auto out = make<Program>(ctx);
    try {
      out->link(inputs, opts, hasOption(opts, "-create-library"));
    } catch (const Error &e) {
      // CL_LINK_PROGRAM_FAILURE: the program object is still returned, so that its
      // build log can be queried.
      if (e.code() != CL_LINK_PROGRAM_FAILURE)
        throw;
      reportError("clLinkProgram", e.code(), e.what());
      linkFailure = e.code();
    }
    if (pfn_notify)
      pfn_notify(out->handle(), user_data);
    return give(std::move(out));
  });
  if (linkFailure != CL_SUCCESS && errcode_ret)
    *errcode_ret = linkFailure;
  return result;
}

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    Program &p = obj<Program>(program, "program");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_PROGRAM_REFERENCE_COUNT:
      return out.scalar<cl_uint>(p.refs());
    case CL_PROGRAM_CONTEXT:
      return out.scalar<cl_context>(p.context().handle());
    case CL_PROGRAM_NUM_DEVICES:
      return out.scalar<cl_uint>(cl_uint(p.context().devices().size()));
    case CL_PROGRAM_DEVICES: {
      std::vector<cl_device_id> ids;
      for (Device *d : p.context().devices())
        ids.push_back(d->handle());
      return out.array(ids);
    }
    case CL_PROGRAM_SOURCE:
      return out.string(p.source());
    case CL_PROGRAM_IL: // empty unless created with clCreateProgramWithIL
      return out.bytes(p.il().data(), p.il().size());
    case CL_PROGRAM_BINARY_SIZES:
      return out.scalar<size_t>(p.binary().bytes.size());
    case CL_PROGRAM_BINARIES: {
      // param_value is an array of one pointer per device, each to memory of the
      // size CL_PROGRAM_BINARY_SIZES reported; a NULL entry is skipped.
      auto *dst = static_cast<unsigned char **>(out.space(sizeof(unsigned char *)));
      if (dst && dst[0]) {
        auto bin = p.binary();
        if (!bin.bytes.empty())
          std::memcpy(dst[0], bin.bytes.data(), bin.bytes.size());
      }
      return;
    }
    case CL_PROGRAM_NUM_KERNELS:
    case CL_PROGRAM_KERNEL_NAMES: {
      // CL_INVALID_PROGRAM_EXECUTABLE if param_name is CL_PROGRAM_NUM_KERNELS or
      // CL_PROGRAM_KERNEL_NAMES and a successful program executable has not been
      // built for at least one device.
      std::shared_ptr<const Program::Built> built = p.built();
      check(!built, CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable");
      if (param_name == CL_PROGRAM_NUM_KERNELS)
        return out.scalar<size_t>(built->kernels.size());
      std::string names;
      for (const auto &k : built->kernels)
        names += (names.empty() ? "" : ";") + k.name;
      return out.string(names);
    }
    case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
    case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT:
      return out.scalar<cl_bool>(CL_FALSE);
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                         cl_program_build_info param_name, size_t param_value_size,
                                         void *param_value, size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_PROGRAM if program is not a valid program object.
    Program &p = obj<Program>(program, "program");
    // CL_INVALID_DEVICE if device is not in the list of devices associated with
    // program.
    Device &d = obj<Device>(device, "device");
    check(!p.context().hasDevice(d), CL_INVALID_DEVICE, "device is not the program's");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_PROGRAM_BUILD_STATUS:
      return out.scalar<cl_build_status>(p.buildStatus());
    case CL_PROGRAM_BUILD_OPTIONS:
      return out.string(p.buildOptions());
    case CL_PROGRAM_BUILD_LOG:
      return out.string(p.buildLog());
    case CL_PROGRAM_BINARY_TYPE:
      return out.scalar<cl_program_binary_type>(binaryType(p.binaryKind()));
    case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
      return out.scalar<size_t>(p.binaryKind() == compiler::BinaryKind::Executable
                                    ? size_t(compiler::globalVariableBytes(p.binary()))
                                    : 0);
    default:
      badParam();
    }
  });
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program,
                                               void(CL_CALLBACK *pfn_notify)(cl_program, void *),
                                               void *user_data) {
  return call(__func__, [&] {
    obj<Program>(program, "program");
    // CL_INVALID_OPERATION if no devices in the context associated with program
    // support program scope global constructors or destructors (deprecated in 3.0).
    throw Error(CL_INVALID_OPERATION, "program release callbacks are not supported");
  });
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                      size_t spec_size, const void *spec_value) {
  return call(__func__, [&] {
    // CL_INVALID_PROGRAM if program is not a valid program object created from an
    // intermediate language (e.g. SPIR-V).
    Program &p = obj<Program>(program, "program");
    check(p.origin() != Program::Origin::IL, CL_INVALID_PROGRAM,
          "program was not created from an intermediate language");
    // CL_INVALID_VALUE if spec_value is NULL.
    check(!spec_value, CL_INVALID_VALUE, "spec_value is NULL");
    // CL_INVALID_SPEC_ID if spec_id is not a valid specialization constant identifier;
    // CL_INVALID_VALUE if spec_size does not match the size of the constant.
    p.setSpecConstant(spec_id, spec_size, spec_value);
  });
}

} // extern "C"
