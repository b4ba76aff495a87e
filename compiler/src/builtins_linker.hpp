// Links into a program the builtins it calls, from the embedded builtins archive
// (fibercl/builtins_archive.h): only the bundles that define a called function are
// read, and only the functions the program needs are linked from them.
#pragma once

#include <string>

namespace llvm {
class Module;
}

namespace fibercl::compiler {

// False (with the reason in `log`) only if the archive is corrupt or linking fails;
// functions no bundle defines are left declared for checkUndefined to report.
bool linkBuiltins(llvm::Module &module, std::string &log);

} // namespace fibercl::compiler
