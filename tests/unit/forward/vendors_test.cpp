// FIBERCL_DELEGATE's selection rules (icd/vendors.hpp).
#include <gtest/gtest.h>

#include "icd/vendors.hpp"

namespace {

using fibercl::icd::delegateSelects;
using fibercl::icd::delegationRequested;
using fibercl::icd::VendorPlatform;

VendorPlatform pocl() {
  VendorPlatform p;
  p.name = "Portable Computing Language";
  p.vendor = "The pocl project";
  p.library = "libpocl.so.2.10.0";
  return p;
}

TEST(DelegateSelection, NoneAndEmptySelectNothing) {
  EXPECT_FALSE(delegationRequested(""));
  EXPECT_FALSE(delegationRequested("none"));
  EXPECT_FALSE(delegationRequested("NONE"));
  EXPECT_FALSE(delegateSelects("none", pocl()));
  EXPECT_TRUE(delegationRequested("pocl"));
}

TEST(DelegateSelection, AllAndSubstringsOfNameVendorOrLibrary) {
  EXPECT_TRUE(delegateSelects("all", pocl()));
  EXPECT_TRUE(delegateSelects("pocl", pocl()));        // vendor and library
  EXPECT_TRUE(delegateSelects("Portable", pocl()));    // name, any case
  EXPECT_TRUE(delegateSelects("nvidia,pocl", pocl())); // a comma-separated list
  EXPECT_FALSE(delegateSelects("nvidia,rusticl", pocl()));
  EXPECT_FALSE(delegateSelects(",", pocl()));
}

} // namespace
