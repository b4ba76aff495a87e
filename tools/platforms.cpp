// `fibercl platforms`: the other OpenCL implementations FiberCL can delegate to (the
// vendor files it reads, what it loads or skips and why, and whether FIBERCL_DELEGATE
// selects each platform). Uses FiberCL's own vendor scan (icd/vendors.hpp).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "icd/vendors.hpp"

int listPlatforms() {
  const char *vendors = std::getenv("OCL_ICD_VENDORS");
  const char *delegate = std::getenv("FIBERCL_DELEGATE");
  std::string selection = delegate ? delegate : "none";
  std::printf("vendor files: %s\nFIBERCL_DELEGATE=%s\n",
              vendors && *vendors ? vendors : "/etc/OpenCL/vendors", selection.c_str());
  // The tool is not FiberCL's library: any FiberCL found is skipped by its name.
  fibercl::icd::VendorScan scan = fibercl::icd::scanVendors(nullptr);
  for (const auto &p : scan.platforms)
    std::printf("platform \"%s\" (%s, %s) from %s [%s]\n", p.name.c_str(), p.vendor.c_str(),
                p.version.c_str(), p.library.c_str(),
                fibercl::icd::delegateSelects(selection, p) ? "delegated" : "not delegated");
  for (const auto &s : scan.skipped)
    std::printf("skipped %s\n", s.c_str());
  if (scan.platforms.empty())
    std::printf("no other OpenCL platform found\n");
  return 0;
}
