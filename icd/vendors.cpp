// scanVendors and delegateSelects (vendors.hpp).
#include "icd/vendors.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <memory>

namespace fibercl::icd {
namespace {

using GetPlatformIDs = cl_int(CL_API_CALL *)(cl_uint, cl_platform_id *, cl_uint *);
using GetExtensionFunctionAddress = void *(CL_API_CALL *)(const char *);

bool isDirectory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool endsWith(const std::string &s, const std::string &tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

// The vendor files, sorted (as ocl-icd reads them).
std::vector<std::string> vendorFiles() {
  // FIBERCL_VENDORS when set (`fibercl exec --delegate` points the loader at FiberCL
  // alone and FiberCL at the vendors), else what the loader reads.
  const char *env = std::getenv("FIBERCL_VENDORS");
  if (!env || !*env)
    env = std::getenv("OCL_ICD_VENDORS");
  std::string where = env && *env ? env : "/etc/OpenCL/vendors";
  if (!isDirectory(where))
    return {where}; // one vendor file
  std::vector<std::string> files;
  if (DIR *d = opendir(where.c_str())) {
    while (dirent *e = readdir(d)) {
      std::string name = e->d_name;
      if (endsWith(name, ".icd"))
        files.push_back(where + "/" + name);
    }
    closedir(d);
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string firstLine(const std::string &file) {
  std::ifstream in(file);
  std::string line;
  std::getline(in, line);
  while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
    line.pop_back();
  return line;
}

std::string realPath(const std::string &p) {
  char buf[PATH_MAX];
  return realpath(p.c_str(), buf) ? std::string(buf) : p;
}

// The file a loaded library came from.
std::string loadedPath(void *handle, const char *symbol) {
  Dl_info info{};
  void *addr = dlsym(handle, symbol);
  return addr && dladdr(addr, &info) && info.dli_fname ? realPath(info.dli_fname) : "";
}

std::string platformString(const VendorPlatform &v, cl_platform_info what) {
  size_t size = 0;
  if (v.dispatch->clGetPlatformInfo(v.platform, what, 0, nullptr, &size) != CL_SUCCESS || !size)
    return "";
  std::string s(size, '\0');
  if (v.dispatch->clGetPlatformInfo(v.platform, what, size, s.data(), nullptr) != CL_SUCCESS)
    return "";
  s.resize(s.find('\0') == std::string::npos ? s.size() : s.find('\0'));
  return s;
}

std::string lower(std::string s) {
  for (char &c : s)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

VendorScan scanVendors(const void *self) {
  VendorScan scan;
  std::string selfPath;
  Dl_info info{};
  if (self && dladdr(self, &info) && info.dli_fname)
    selfPath = realPath(info.dli_fname);
  for (const std::string &file : vendorFiles()) {
    std::string lib = firstLine(file);
    auto skip = [&](const std::string &why) { scan.skipped.push_back(file + ": " + why); };
    if (lib.empty()) {
      skip("names no library");
      continue;
    }
    if (lib.find("libOpenCL.so") != std::string::npos) {
      skip("an ICD loader, not an implementation");
      continue;
    }
    void *handle = dlopen(lib.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      const char *err = dlerror();
      skip(std::string("cannot be loaded: ") + (err ? err : "?"));
      continue;
    }
    auto getIds = reinterpret_cast<GetPlatformIDs>(dlsym(handle, "clIcdGetPlatformIDsKHR"));
    if (!getIds)
      if (auto gefa = reinterpret_cast<GetExtensionFunctionAddress>(
              dlsym(handle, "clGetExtensionFunctionAddress")))
        getIds = reinterpret_cast<GetPlatformIDs>(gefa("clIcdGetPlatformIDsKHR"));
    std::string path = loadedPath(handle, getIds ? "clIcdGetPlatformIDsKHR" : "clGetPlatformInfo");
    if (!selfPath.empty() && path == selfPath) {
      skip("FiberCL itself");
      continue; // (the handle only re-references this library)
    }
    if (!getIds) {
      skip("no clIcdGetPlatformIDsKHR: not an ICD");
      continue;
    }
    cl_uint n = 0;
    if (getIds(0, nullptr, &n) != CL_SUCCESS || n == 0) {
      skip("has no platform");
      continue;
    }
    std::vector<cl_platform_id> ids(n);
    if (getIds(n, ids.data(), nullptr) != CL_SUCCESS) {
      skip("clIcdGetPlatformIDsKHR failed");
      continue;
    }
    for (cl_platform_id p : ids) {
      VendorPlatform v;
      v.icdFile = file;
      v.library = lib;
      v.platform = p;
      v.dispatch = p ? *reinterpret_cast<const cl_icd_dispatch *const *>(p) : nullptr;
      if (!v.dispatch || !v.dispatch->clGetPlatformInfo) {
        skip("a platform without a dispatch table");
        continue;
      }
      v.name = platformString(v, CL_PLATFORM_NAME);
      v.vendor = platformString(v, CL_PLATFORM_VENDOR);
      v.version = platformString(v, CL_PLATFORM_VERSION);
      // Another FiberCL (an installed one, a build tree): its CPU platform, or one it
      // forwards to a vendor (which this scan finds directly).
      if (isFiberCLPlatformName(v.name)) {
        skip("another FiberCL");
        break; // the library's other platforms are FiberCL's too
      }
      scan.platforms.push_back(std::move(v));
    }
  }
  return scan;
}

std::string delegatedPlatformName(const std::string &vendorPlatformName) {
  return "FiberCL -> " + vendorPlatformName;
}

bool isFiberCLPlatformName(const std::string &name) {
  return name == "FiberCL" || name.rfind(delegatedPlatformName(""), 0) == 0;
}

bool delegationRequested(const std::string &selection) {
  std::string sel = lower(selection);
  return !sel.empty() && sel != "none";
}

bool delegateSelects(const std::string &selection, const VendorPlatform &p) {
  std::string sel = lower(selection);
  if (sel.empty() || sel == "none")
    return false;
  if (sel == "all")
    return true;
  std::string name = lower(p.name + "\n" + p.vendor + "\n" + p.library);
  size_t start = 0;
  while (start <= sel.size()) {
    size_t comma = sel.find(',', start);
    std::string part =
        sel.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!part.empty() && name.find(part) != std::string::npos)
      return true;
    if (comma == std::string::npos)
      break;
    start = comma + 1;
  }
  return false;
}

} // namespace fibercl::icd
