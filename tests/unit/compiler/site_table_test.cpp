// SiteTable and readProgressAnnotations: a site is numbered uniquely and named by its
// source line, file (the frontend's virtual directory stripped) and the source
// function it is in -- with that function's fibercl.progress annotation, read before
// inlining.
#include <gtest/gtest.h>
#include <llvm/IR/Instructions.h>

#include "frontend.hpp"
#include "ir_test.hpp"
#include "passes/passes.hpp"

namespace fibercl::compiler::test {
namespace {

// A kernel body that calls wait_for (a primitives library function annotated with the
// progress it assumes), and a site inside wait_for inlined into it; `other` carries an
// annotation that is not FiberCL's.
const char *kIR = R"(
@.progress = private unnamed_addr constant [33 x i8] c"fibercl.progress:fair scheduling\00", section "llvm.metadata"
@.other = private unnamed_addr constant [6 x i8] c"other\00", section "llvm.metadata"
@.file = private unnamed_addr constant [2 x i8] c"f\00", section "llvm.metadata"
@llvm.global.annotations = appending global [2 x { ptr, ptr, ptr, i32, ptr }] [
  { ptr, ptr, ptr, i32, ptr } { ptr @wait_for, ptr @.progress, ptr @.file, i32 1, ptr null },
  { ptr, ptr, ptr, i32, ptr } { ptr @other, ptr @.other, ptr @.file, i32 2, ptr null }
], section "llvm.metadata"

define void @k.fibercl.body(ptr %ctx, i32 %x, i32 %y, i32 %z) #0 !dbg !4 {
  %v = load atomic i32, ptr %ctx acquire, align 4, !dbg !10
  %w = load i32, ptr %ctx, align 4, !dbg !11
  %u = load i32, ptr %ctx, align 4
  ret void
}

define void @wait_for(ptr %p) !dbg !8 {
  ret void
}

define void @other() {
  ret void
}

attributes #0 = { "fibercl-kernel"="k" }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!20, !21}
!0 = distinct !DICompileUnit(language: DW_LANG_OpenCL, file: !1, producer: "clang", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "/fibercl-input/<source>", directory: "/")
!2 = !DIFile(filename: "/fibercl-input/fibercl/primitives.h", directory: "/")
!3 = !DISubroutineType(types: !{})
!4 = distinct !DISubprogram(name: "k", scope: !1, file: !1, line: 3, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!8 = distinct !DISubprogram(name: "wait_for", scope: !2, file: !2, line: 20, type: !3, unit: !0, spFlags: DISPFlagDefinition)
!10 = !DILocation(line: 24, column: 5, scope: !8, inlinedAt: !12)
!11 = !DILocation(line: 6, column: 3, scope: !4)
!12 = !DILocation(line: 5, column: 3, scope: !4)
!20 = !{i32 2, !"Debug Info Version", i32 3}
!21 = !{i32 7, !"Dwarf Version", i32 5}
)";

class Sites : public ::testing::Test {
protected:
  void SetUp() override {
    m = parseIR(context, kIR);
    ASSERT_TRUE(m);
    readProgressAnnotations(*m, sites);
    ASSERT_EQ(verify(*m), "");
  }
  llvm::Instruction *instruction(const char *name) {
    for (llvm::BasicBlock &bb : *findBody(*m, "k"))
      for (llvm::Instruction &i : bb)
        if (i.getName() == name)
          return &i;
    return nullptr;
  }
  llvm::LLVMContext context;
  std::unique_ptr<llvm::Module> m;
  SiteTable sites;
};

TEST_F(Sites, ProgressAnnotationsAreReadAndTheListDropped) {
  ASSERT_EQ(sites.progressOf.size(), 1u);
  EXPECT_EQ(sites.progressOf["wait_for"], "fair scheduling");
  // The list would keep wait_for alive (with the builtins' markers in it) after
  // inlining.
  EXPECT_FALSE(m->getNamedGlobal("llvm.global.annotations"));
}

TEST_F(Sites, SiteIsNamedByItsSourceLine) {
  llvm::Function &body = *findBody(*m, "k");
  uint32_t inlined = sites.add(body, instruction("v"), SiteInfo::Kind::AtomicRead, true);
  uint32_t own = sites.add(body, instruction("w"), SiteInfo::Kind::Fence);
  uint32_t unknown = sites.add(body, instruction("u"), SiteInfo::Kind::LoopPoll);
  EXPECT_NE(inlined, own);
  EXPECT_NE(own, unknown);
  const std::vector<SiteInfo> &k = sites.byKernel["k"];
  ASSERT_EQ(k.size(), 3u);

  EXPECT_EQ(k[0].id, inlined);
  EXPECT_EQ(k[0].kind, SiteInfo::Kind::AtomicRead);
  EXPECT_TRUE(k[0].waiting);
  EXPECT_EQ(k[0].line, 24u);
  EXPECT_EQ(k[0].file, "fibercl/primitives.h");
  EXPECT_EQ(k[0].function, "wait_for");
  EXPECT_EQ(k[0].progress, "fair scheduling");

  EXPECT_EQ(k[1].line, 6u);
  EXPECT_EQ(k[1].file, "<source>");
  EXPECT_EQ(k[1].function, "k");
  EXPECT_EQ(k[1].progress, "");
  EXPECT_FALSE(k[1].waiting);

  EXPECT_EQ(k[2].line, 0u);
  EXPECT_EQ(k[2].file, "");
}

} // namespace
} // namespace fibercl::compiler::test
