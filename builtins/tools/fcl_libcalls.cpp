// Lists the C library functions a bitcode module calls (declarations that are
// neither intrinsics nor FiberCL markers nor mangled OpenCL builtins), and
// whether LLVM's TargetLibraryInfo knows them: the FiberCL compiler accepts an
// undefined function after linking the builtins only if it does (see
// checkUndefined in compiler/src/pipeline.cpp). Used by check_coverage.sh.
// Build: c++ -std=c++17 fcl_libcalls.cpp $(llvm-config-19 --cxxflags --ldflags) -lLLVM-19
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  llvm::LLVMContext context;
  llvm::SMDiagnostic err;
  std::unique_ptr<llvm::Module> m = llvm::parseIRFile(argv[1], err, context);
  if (!m) {
    err.print(argv[0], llvm::errs());
    return 2;
  }
  llvm::TargetLibraryInfoImpl tlii(llvm::Triple(m->getTargetTriple()));
  for (const llvm::Function &f : *m) {
    llvm::StringRef name = f.getName();
    if (!f.isDeclaration() || f.isIntrinsic() || name.starts_with("__fibercl_") ||
        name.starts_with("_Z"))
      continue;
    llvm::LibFunc libFunc;
    llvm::outs() << (tlii.getLibFunc(name, libFunc) ? "known " : "unknown ") << name << "\n";
  }
  return 0;
}
