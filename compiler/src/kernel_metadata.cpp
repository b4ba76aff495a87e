// Kernel argument and attribute metadata (see kernel_metadata.hpp).
#include "kernel_metadata.hpp"

#include "fibercl/kernel_abi.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

#include <CL/cl.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace fibercl::compiler {
namespace {

std::string mdString(const llvm::MDNode *node, unsigned i) {
  if (!node || i >= node->getNumOperands())
    return {};
  if (auto *s = llvm::dyn_cast_or_null<llvm::MDString>(node->getOperand(i)))
    return s->getString().str();
  return {};
}

uint64_t mdInt(const llvm::MDNode *node, unsigned i) {
  if (!node || i >= node->getNumOperands())
    return 0;
  if (auto *c = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(node->getOperand(i)))
    return c->getZExtValue();
  return 0;
}

// Clang's kernel_arg_addr_space numbering is SPIR's.
uint32_t addressQualifier(uint64_t spirAddressSpace) {
  switch (spirAddressSpace) {
  case 1:
    return CL_KERNEL_ARG_ADDRESS_GLOBAL;
  case 2:
    return CL_KERNEL_ARG_ADDRESS_CONSTANT;
  case 3:
    return CL_KERNEL_ARG_ADDRESS_LOCAL;
  default:
    return CL_KERNEL_ARG_ADDRESS_PRIVATE;
  }
}

uint32_t accessQualifier(const std::string &s) {
  if (s == "read_only")
    return CL_KERNEL_ARG_ACCESS_READ_ONLY;
  if (s == "write_only")
    return CL_KERNEL_ARG_ACCESS_WRITE_ONLY;
  if (s == "read_write")
    return CL_KERNEL_ARG_ACCESS_READ_WRITE;
  return CL_KERNEL_ARG_ACCESS_NONE;
}

uint64_t typeQualifier(const std::string &s) {
  uint64_t q = CL_KERNEL_ARG_TYPE_NONE;
  if (s.find("const") != std::string::npos)
    q |= CL_KERNEL_ARG_TYPE_CONST;
  if (s.find("restrict") != std::string::npos)
    q |= CL_KERNEL_ARG_TYPE_RESTRICT;
  if (s.find("volatile") != std::string::npos)
    q |= CL_KERNEL_ARG_TYPE_VOLATILE;
  if (s.find("pipe") != std::string::npos)
    q |= CL_KERNEL_ARG_TYPE_PIPE;
  return q;
}

bool startsWith(const std::string &s, const char *prefix) { return s.rfind(prefix, 0) == 0; }

ArgKind argKind(const std::string &baseType, uint32_t addrQual, uint64_t typeQual) {
  if (typeQual & CL_KERNEL_ARG_TYPE_PIPE)
    return ArgKind::Pipe;
  if (baseType == "sampler_t")
    return ArgKind::Sampler;
  if (startsWith(baseType, "image") && baseType.find("_t") != std::string::npos)
    return ArgKind::Image;
  if (baseType == "queue_t")
    return ArgKind::Queue;
  switch (addrQual) {
  case CL_KERNEL_ARG_ADDRESS_GLOBAL:
    return ArgKind::GlobalPointer;
  case CL_KERNEL_ARG_ADDRESS_CONSTANT:
    return ArgKind::ConstantPointer;
  case CL_KERNEL_ARG_ADDRESS_LOCAL:
    return ArgKind::LocalPointer;
  default:
    return ArgKind::Value;
  }
}

// The vec_type_hint attribute's type as OpenCL C spells it.
std::string vecTypeName(const llvm::MDNode *hint) {
  auto *ty = llvm::mdconst::dyn_extract_or_null<llvm::Constant>(hint->getOperand(0));
  if (!ty)
    return "";
  llvm::Type *t = ty->getType();
  unsigned n = 1;
  if (auto *vt = llvm::dyn_cast<llvm::FixedVectorType>(t)) {
    n = vt->getNumElements();
    t = vt->getElementType();
  }
  bool isSigned = mdInt(hint, 1) != 0;
  std::string base;
  if (t->isFloatTy())
    base = "float";
  else if (t->isDoubleTy())
    base = "double";
  else if (t->isHalfTy())
    base = "half";
  else if (t->isIntegerTy(8))
    base = isSigned ? "char" : "uchar";
  else if (t->isIntegerTy(16))
    base = isSigned ? "short" : "ushort";
  else if (t->isIntegerTy(32))
    base = isSigned ? "int" : "uint";
  else if (t->isIntegerTy(64))
    base = isSigned ? "long" : "ulong";
  return n > 1 ? base + std::to_string(n) : base;
}

std::string threeInts(const char *name, const llvm::MDNode *node) {
  return std::string(name) + "(" + std::to_string(mdInt(node, 0)) + "," +
         std::to_string(mdInt(node, 1)) + "," + std::to_string(mdInt(node, 2)) + ")";
}

} // namespace

bool isSupportedSubGroupSize(uint64_t size) {
  return size >= 4 && size <= FIBERCL_MAX_SUB_GROUP_SIZE && (size & (size - 1)) == 0;
}

uint32_t defaultSubGroupSize() {
  // One vector of 32-bit lanes: the work-item loops are vectorised at that width.
  uint32_t vector = __builtin_cpu_supports("avx512f") ? 16 : __builtin_cpu_supports("avx") ? 8 : 4;
  if (const char *env = std::getenv("FIBERCL_SUBGROUP_SIZE"); env && *env) {
    char *end = nullptr;
    unsigned long size = std::strtoul(env, &end, 10);
    if (end != env && *end == '\0' && isSupportedSubGroupSize(size))
      return uint32_t(size);
    static std::once_flag said;
    std::call_once(said, [&] {
      std::fprintf(stderr,
                   "FiberCL: FIBERCL_SUBGROUP_SIZE=%s is not 4, 8, 16, 32 or 64: sub-groups "
                   "have %u work-items\n",
                   env, vector);
    });
  }
  return vector;
}

uint32_t requiredSubGroupSize(const llvm::Function &kernel) {
  const llvm::MDNode *r = kernel.getMetadata("intel_reqd_sub_group_size");
  return r && r->getNumOperands() == 1 ? uint32_t(mdInt(r, 0)) : 0;
}

bool isKernel(const llvm::Function &f) {
  return f.getCallingConv() == llvm::CallingConv::SPIR_KERNEL && !f.isDeclaration();
}

std::vector<KernelInfo> readKernelMetadata(const llvm::Module &module) {
  std::vector<KernelInfo> kernels;
  const llvm::DataLayout &dl = module.getDataLayout();
  for (const llvm::Function &f : module) {
    if (!isKernel(f))
      continue;
    KernelInfo k;
    k.name = f.getName().str();
    const llvm::MDNode *addr = f.getMetadata("kernel_arg_addr_space");
    const llvm::MDNode *access = f.getMetadata("kernel_arg_access_qual");
    const llvm::MDNode *type = f.getMetadata("kernel_arg_type");
    const llvm::MDNode *baseType = f.getMetadata("kernel_arg_base_type");
    const llvm::MDNode *typeQual = f.getMetadata("kernel_arg_type_qual");
    const llvm::MDNode *names = f.getMetadata("kernel_arg_name");
    for (const llvm::Argument &arg : f.args()) {
      unsigned i = arg.getArgNo();
      KernelArg a;
      a.addressQualifier = addressQualifier(mdInt(addr, i));
      a.accessQualifier = accessQualifier(mdString(access, i));
      a.typeQualifier = typeQualifier(mdString(typeQual, i));
      a.typeName = mdString(type, i);
      a.name = mdString(names, i);
      a.kind = argKind(mdString(baseType, i), a.addressQualifier, a.typeQualifier);
      if (llvm::Type *byval = arg.getParamByValType())
        a.size = uint32_t(dl.getTypeAllocSize(byval));
      else
        a.size = uint32_t(dl.getTypeAllocSize(arg.getType()));
      k.args.push_back(std::move(a));
    }
    std::string attrs;
    auto append = [&](const std::string &s) { attrs += (attrs.empty() ? "" : " ") + s; };
    if (const llvm::MDNode *r = f.getMetadata("reqd_work_group_size")) {
      for (unsigned d = 0; d < 3; ++d)
        k.reqdWorkGroupSize[d] = mdInt(r, d);
      append(threeInts("reqd_work_group_size", r));
    }
    if (const llvm::MDNode *h = f.getMetadata("work_group_size_hint"))
      append(threeInts("work_group_size_hint", h));
    if (const llvm::MDNode *v = f.getMetadata("vec_type_hint"))
      append("vec_type_hint(" + vecTypeName(v) + ")");
    k.requiredSubGroupSize = requiredSubGroupSize(f);
    if (k.requiredSubGroupSize)
      append("intel_reqd_sub_group_size(" + std::to_string(k.requiredSubGroupSize) + ")");
    k.subGroupSize = k.requiredSubGroupSize ? k.requiredSubGroupSize : defaultSubGroupSize();
    k.attributes = attrs;
    kernels.push_back(std::move(k));
  }
  return kernels;
}

} // namespace fibercl::compiler
