// Entry points for sampler objects.
#include "runtime/api/entry.hpp"
#include "runtime/context.hpp"
#include "runtime/sampler.hpp"

using namespace fibercl::runtime;
using namespace fibercl::runtime::api;

namespace {

cl_sampler createSampler(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                         cl_filter_mode filter, std::vector<cl_sampler_properties> props) {
  // CL_INVALID_CONTEXT if context is not a valid context.
  Context &ctx = obj<Context>(context, "context");
  // CL_INVALID_VALUE if addressing_mode, filter_mode, normalized_coords or a
  // combination of these arguments are not valid.
  check(normalized != CL_TRUE && normalized != CL_FALSE, CL_INVALID_VALUE,
        "normalized_coords is neither CL_TRUE nor CL_FALSE");
  check(addressing < CL_ADDRESS_NONE || addressing > CL_ADDRESS_MIRRORED_REPEAT, CL_INVALID_VALUE,
        "addressing_mode is not a CL_ADDRESS_* value");
  check(filter != CL_FILTER_NEAREST && filter != CL_FILTER_LINEAR, CL_INVALID_VALUE,
        "filter_mode is not CL_FILTER_NEAREST or CL_FILTER_LINEAR");
  check(!normalized &&
            (addressing == CL_ADDRESS_REPEAT || addressing == CL_ADDRESS_MIRRORED_REPEAT),
        CL_INVALID_VALUE, "CL_ADDRESS_REPEAT and MIRRORED_REPEAT need normalized coordinates");
  return give(make<Sampler>(ctx, normalized == CL_TRUE, addressing, filter, std::move(props)));
}

} // namespace

extern "C" {

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    return createSampler(context, normalized_coords, addressing_mode, filter_mode, {});
  });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(
    cl_context context, const cl_sampler_properties *sampler_properties, cl_int *errcode_ret) {
  return create(__func__, errcode_ret, [&] {
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
    std::vector<cl_sampler_properties> props;
    bool seen[3] = {false, false, false};
    for (const cl_sampler_properties *p = sampler_properties; p && *p; p += 2) {
      // CL_INVALID_VALUE if the property name in sampler_properties is not a supported
      // property name, if the value specified for a supported property name is not
      // valid, or if the same property name is specified more than once.
      int which = p[0] == CL_SAMPLER_NORMALIZED_COORDS ? 0
                  : p[0] == CL_SAMPLER_ADDRESSING_MODE ? 1
                  : p[0] == CL_SAMPLER_FILTER_MODE     ? 2
                                                       : -1;
      check(which < 0, CL_INVALID_VALUE, "unsupported sampler property");
      check(seen[which], CL_INVALID_VALUE, "a sampler property is given twice");
      seen[which] = true;
      if (which == 0)
        normalized = static_cast<cl_bool>(p[1]);
      else if (which == 1)
        addressing = static_cast<cl_addressing_mode>(p[1]);
      else
        filter = static_cast<cl_filter_mode>(p[1]);
      props.push_back(p[0]);
      props.push_back(p[1]);
    }
    if (sampler_properties)
      props.push_back(0);
    return createSampler(context, normalized, addressing, filter, std::move(props));
  });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
  return call(__func__, [&] { obj<Sampler>(sampler, "sampler").retain(); });
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
  return call(__func__, [&] { obj<Sampler>(sampler, "sampler").release(); });
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                    size_t param_value_size, void *param_value,
                                    size_t *param_value_size_ret) {
  return call(__func__, [&] {
    // CL_INVALID_SAMPLER if sampler is a not a valid sampler object.
    Sampler &s = obj<Sampler>(sampler, "sampler");
    InfoWriter out(param_value_size, param_value, param_value_size_ret);
    switch (param_name) {
    case CL_SAMPLER_REFERENCE_COUNT:
      return out.scalar<cl_uint>(s.refs());
    case CL_SAMPLER_CONTEXT:
      return out.scalar<cl_context>(s.context().handle());
    case CL_SAMPLER_NORMALIZED_COORDS:
      return out.scalar<cl_bool>(s.normalizedCoords() ? CL_TRUE : CL_FALSE);
    case CL_SAMPLER_ADDRESSING_MODE:
      return out.scalar<cl_addressing_mode>(s.addressingMode());
    case CL_SAMPLER_FILTER_MODE:
      return out.scalar<cl_filter_mode>(s.filterMode());
    case CL_SAMPLER_PROPERTIES:
      return out.array(s.properties());
    default:
      badParam();
    }
  });
}

} // extern "C"
