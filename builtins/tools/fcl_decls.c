/* Lists every function the default OpenCL header (opencl-c.h) declares under the given
 * compiler flags, one per line: "<mangled name>\t<name>\t<param type>\t<param type>..."
 * Used by check_coverage.sh. Build: cc fcl_decls.c -I/usr/lib/llvm-19/include
 *   -L/usr/lib/llvm-19/lib -lclang -Wl,-rpath,/usr/lib/llvm-19/lib
 * Usage: fcl_decls <file.cl> clang <clang args...>                                       */
#include <clang-c/Index.h>
#include <stdio.h>
#include <string.h>

static enum CXChildVisitResult visit(CXCursor c, CXCursor parent, CXClientData data) {
  (void)parent;
  (void)data;
  if (clang_getCursorKind(c) != CXCursor_FunctionDecl)
    return CXChildVisit_Continue;
  CXString mangled = clang_Cursor_getMangling(c);
  CXString name = clang_getCursorSpelling(c);
  printf("%s\t%s", clang_getCString(mangled), clang_getCString(name));
  int n = clang_Cursor_getNumArguments(c);
  CXType ft = clang_getCursorType(c);
  for (int i = 0; i < n; ++i) {
    CXString ts = clang_getTypeSpelling(clang_getArgType(ft, i));
    printf("\t%s", clang_getCString(ts));
    clang_disposeString(ts);
  }
  printf("\n");
  clang_disposeString(mangled);
  clang_disposeString(name);
  return CXChildVisit_Continue;
}

int main(int argc, char **argv) {
  if (argc < 2)
    return 2;
  CXIndex idx = clang_createIndex(0, 1);
  CXTranslationUnit tu;
  enum CXErrorCode err =
      clang_parseTranslationUnit2FullArgv(idx, argv[1], (const char *const *)argv + 2, argc - 2,
                                          NULL, 0, CXTranslationUnit_SkipFunctionBodies, &tu);
  if (err != CXError_Success) {
    fprintf(stderr, "parse failed: %d\n", err);
    return 1;
  }
  for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; ++i) {
    CXDiagnostic d = clang_getDiagnostic(tu, i);
    if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
      CXString s = clang_formatDiagnostic(d, clang_defaultDiagnosticDisplayOptions());
      fprintf(stderr, "%s\n", clang_getCString(s));
      clang_disposeString(s);
    }
    clang_disposeDiagnostic(d);
  }
  clang_visitChildren(clang_getTranslationUnitCursor(tu), visit, NULL);
  clang_disposeTranslationUnit(tu);
  clang_disposeIndex(idx);
  return 0;
}
