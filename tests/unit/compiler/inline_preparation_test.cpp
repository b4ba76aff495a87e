// InlinePreparationPass: every function but the kernel bodies becomes internal and
// always-inline (noinline and optnone dropped, on functions and call sites), and no
// function keeps the builtins' target attributes.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>

#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

const char *kIR = R"(
define void @k.fibercl.body(ptr %ctx, i32 %x, i32 %y, i32 %z) #0 {
  call void @helper() #3
  call void @library()
  ret void
}

define void @helper() #1 {
  ret void
}

define hidden void @library() #2 {
  ret void
}

declare void @external()

attributes #0 = { "fibercl-kernel"="k" "target-cpu"="x86-64" }
attributes #1 = { noinline optnone "target-cpu"="x86-64" "target-features"="+sse2" "tune-cpu"="generic" }
attributes #2 = { "target-features"="+sse2" }
attributes #3 = { noinline }
)";

class InlinePreparation : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    PassRunner().runOnModule(*m, InlinePreparationPass());
    ASSERT_EQ(verify(*m), "");
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
};

TEST_F(InlinePreparation, CalleesBecomeInternalAndAlwaysInline) {
  for (const char *name : {"helper", "library"}) {
    llvm::Function &f = *m->getFunction(name);
    EXPECT_TRUE(f.hasFnAttribute(llvm::Attribute::AlwaysInline)) << name;
    EXPECT_FALSE(f.hasFnAttribute(llvm::Attribute::NoInline)) << name;
    EXPECT_FALSE(f.hasFnAttribute(llvm::Attribute::OptimizeNone)) << name;
    EXPECT_TRUE(f.hasInternalLinkage()) << name;
    EXPECT_EQ(f.getVisibility(), llvm::GlobalValue::DefaultVisibility) << name;
  }
  for (llvm::CallBase *call : callsTo(*findBody(*m, "k"), "helper"))
    EXPECT_FALSE(call->hasFnAttr(llvm::Attribute::NoInline)) << print(*m);
}

TEST_F(InlinePreparation, BodiesAndDeclarationsStayAsTheyAre) {
  llvm::Function &body = *findBody(*m, "k");
  EXPECT_FALSE(body.hasFnAttribute(llvm::Attribute::AlwaysInline));
  EXPECT_FALSE(body.hasInternalLinkage());
  EXPECT_TRUE(m->getFunction("external")->hasExternalLinkage());
}

TEST_F(InlinePreparation, TargetAttributesAreDropped) {
  for (llvm::Function &f : *m)
    for (const char *attr : {"target-cpu", "target-features", "tune-cpu"})
      EXPECT_FALSE(f.hasFnAttribute(attr)) << f.getName().str() << " keeps " << attr;
}

} // namespace
} // namespace fibercl::compiler::test
