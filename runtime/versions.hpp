// The extension, feature and OpenCL C version lists the platform and device report,
// as strings and as cl_name_version arrays.
#pragma once

#include <CL/cl.h>

#include <string>
#include <utility>
#include <vector>

namespace fibercl::runtime {

using NameVersions = std::vector<std::pair<const char *, cl_version>>;

const NameVersions &platformExtensions();
const NameVersions &deviceExtensions();
const NameVersions &openclCFeatures();
const NameVersions &openclCVersions();

// "a b c": names joined by spaces.
std::string joinNames(const NameVersions &list);
std::vector<cl_name_version> nameVersions(const NameVersions &list);

} // namespace fibercl::runtime
