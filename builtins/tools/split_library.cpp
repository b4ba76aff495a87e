// Build-time tool: splits the linked builtins library into an archive of bundles,
// one per OpenCL C function name, with a sorted symbol index (layout in
// fibercl/builtins_archive.h).
//
//   fibercl_split_builtins <library.bc> <archive.out>
//
// A bundle defines every overload of one name (the Itanium base name: `sin` for
// _Z3sinf and _Z3sinDv4_f; the symbol itself for unmangled ones) plus private copies
// of the local-linkage functions and variables they reach. Anything else they call is
// a declaration, resolved from another bundle when a program links them.
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fibercl/builtins_archive.h"

namespace {

[[noreturn]] void fail(const std::string &message) {
  std::fprintf(stderr, "fibercl_split_builtins: %s\n", message.c_str());
  std::exit(1);
}

std::string bundleName(llvm::StringRef symbol) {
  std::string mangled = symbol.str(); // the demangler's nodes point into it
  llvm::ItaniumPartialDemangler demangler;
  if (demangler.partialDemangle(mangled.c_str()))
    return mangled; // not a mangled name
  char *base = demangler.getFunctionBaseName(nullptr, nullptr);
  std::string name = base ? base : mangled;
  std::free(base);
  return name;
}

// The globals a global's definition refers to, through constant expressions too.
void collectReferences(llvm::Value *v, std::set<llvm::GlobalValue *> &out,
                       std::set<llvm::Value *> &seen) {
  if (!seen.insert(v).second)
    return;
  if (auto *gv = llvm::dyn_cast<llvm::GlobalValue>(v)) {
    out.insert(gv);
    return;
  }
  if (auto *c = llvm::dyn_cast<llvm::Constant>(v))
    for (llvm::Value *op : c->operands())
      collectReferences(op, out, seen);
}

std::set<llvm::GlobalValue *> referencesOf(llvm::GlobalValue &gv) {
  std::set<llvm::GlobalValue *> out;
  std::set<llvm::Value *> seen;
  if (auto *f = llvm::dyn_cast<llvm::Function>(&gv)) {
    for (llvm::BasicBlock &bb : *f)
      for (llvm::Instruction &i : bb)
        for (llvm::Value *op : i.operands())
          if (llvm::isa<llvm::Constant>(op))
            collectReferences(op, out, seen);
  } else if (auto *var = llvm::dyn_cast<llvm::GlobalVariable>(&gv)) {
    if (var->hasInitializer())
      collectReferences(var->getInitializer(), out, seen);
  }
  return out;
}

// Declares, in the bundle, whatever the cloned bodies use from outside the bundle.
class DeclarationMaterializer final : public llvm::ValueMaterializer {
public:
  explicit DeclarationMaterializer(llvm::Module &bundle) : bundle_(bundle) {}
  llvm::Value *materialize(llvm::Value *v) override {
    if (auto *f = llvm::dyn_cast<llvm::Function>(v)) {
      llvm::Function *decl =
          llvm::Function::Create(f->getFunctionType(), llvm::GlobalValue::ExternalLinkage,
                                 f->getAddressSpace(), f->getName(), &bundle_);
      decl->copyAttributesFrom(f);
      decl->setLinkage(llvm::GlobalValue::ExternalLinkage);
      return decl;
    }
    if (auto *var = llvm::dyn_cast<llvm::GlobalVariable>(v))
      return new llvm::GlobalVariable(bundle_, var->getValueType(), var->isConstant(),
                                      llvm::GlobalValue::ExternalLinkage, nullptr, var->getName(),
                                      nullptr, var->getThreadLocalMode(), var->getAddressSpace());
    return nullptr;
  }

private:
  llvm::Module &bundle_;
};

std::string writeBundle(llvm::Module &library, const std::string &name,
                        const std::vector<llvm::GlobalValue *> &roots) {
  // The roots and the local-linkage globals they reach.
  std::set<llvm::GlobalValue *> members(roots.begin(), roots.end());
  std::vector<llvm::GlobalValue *> work(roots.begin(), roots.end());
  while (!work.empty()) {
    llvm::GlobalValue *gv = work.back();
    work.pop_back();
    for (llvm::GlobalValue *ref : referencesOf(*gv))
      if (ref->hasLocalLinkage() && !ref->isDeclaration() && members.insert(ref).second)
        work.push_back(ref);
  }

  auto bundle = std::make_unique<llvm::Module>(name, library.getContext());
  bundle->setDataLayout(library.getDataLayout());
  bundle->setTargetTriple(library.getTargetTriple());
  llvm::SmallVector<llvm::Module::ModuleFlagEntry, 8> flags;
  library.getModuleFlagsMetadata(flags);
  for (const auto &flag : flags)
    bundle->addModuleFlag(flag.Behavior, flag.Key->getString(), flag.Val);

  llvm::ValueToValueMapTy map;
  for (llvm::GlobalValue *gv : members) {
    if (auto *f = llvm::dyn_cast<llvm::Function>(gv)) {
      llvm::Function *copy = llvm::Function::Create(
          f->getFunctionType(), f->getLinkage(), f->getAddressSpace(), f->getName(), bundle.get());
      copy->copyAttributesFrom(f);
      map[f] = copy;
    } else if (auto *var = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
      auto *copy = new llvm::GlobalVariable(*bundle, var->getValueType(), var->isConstant(),
                                            var->getLinkage(), nullptr, var->getName(), nullptr,
                                            var->getThreadLocalMode(), var->getAddressSpace());
      copy->copyAttributesFrom(var);
      map[var] = copy;
    } else {
      fail("'" + gv->getName().str() + "': only functions and variables are supported");
    }
  }
  DeclarationMaterializer declarations(*bundle);
  for (llvm::GlobalValue *gv : members) {
    if (auto *f = llvm::dyn_cast<llvm::Function>(gv)) {
      auto *copy = llvm::cast<llvm::Function>(map[f]);
      auto arg = copy->arg_begin();
      for (llvm::Argument &a : f->args()) {
        arg->setName(a.getName());
        map[&a] = &*arg++;
      }
      llvm::SmallVector<llvm::ReturnInst *, 4> returns;
      llvm::CloneFunctionInto(copy, f, map, llvm::CloneFunctionChangeType::DifferentModule, returns,
                              "", nullptr, nullptr, &declarations);
    } else if (auto *var = llvm::dyn_cast<llvm::GlobalVariable>(gv)) {
      if (var->hasInitializer())
        llvm::cast<llvm::GlobalVariable>(map[var])->setInitializer(
            llvm::MapValue(var->getInitializer(), map, llvm::RF_None, nullptr, &declarations));
    }
  }

  std::string errors;
  llvm::raw_string_ostream es(errors);
  if (llvm::verifyModule(*bundle, &es))
    fail("bundle '" + name + "' is invalid:\n" + es.str());
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  llvm::WriteBitcodeToFile(*bundle, os);
  os.flush();
  return bytes;
}

void put32(std::string &out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    out.push_back(char((v >> (8 * i)) & 0xff));
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 3)
    fail("usage: fibercl_split_builtins <library.bc> <archive.out>");
  auto input = llvm::MemoryBuffer::getFile(argv[1]);
  if (!input)
    fail(std::string("cannot read ") + argv[1]);
  llvm::LLVMContext context;
  auto library = llvm::parseBitcodeFile((*input)->getMemBufferRef(), context);
  if (!library)
    fail(llvm::toString(library.takeError()));
  llvm::Module &m = **library;
  if (!m.alias_empty() || !m.ifunc_empty())
    fail("aliases and ifuncs are not supported in the builtins library");

  // Bundles by name, in name order so that the archive is reproducible.
  std::map<std::string, std::vector<llvm::GlobalValue *>> bundles;
  for (llvm::Function &f : m)
    if (!f.isDeclaration() && !f.hasLocalLinkage())
      bundles[bundleName(f.getName())].push_back(&f);
  for (llvm::GlobalVariable &var : m.globals())
    if (!var.isDeclaration() && !var.hasLocalLinkage())
      bundles[var.getName().str()].push_back(&var);

  std::vector<std::string> bitcode;
  std::map<std::string, uint32_t> symbols; // sorted by name, as the reader expects
  for (const auto &[name, roots] : bundles) {
    for (llvm::GlobalValue *gv : roots)
      symbols[gv->getName().str()] = uint32_t(bitcode.size());
    bitcode.push_back(writeBundle(m, name, roots));
  }

  std::string names;
  for (const auto &[symbol, bundle] : symbols)
    names += symbol;
  size_t tablesEnd = FIBERCL_BUILTINS_ARCHIVE_HEADER_SIZE +
                     bitcode.size() * FIBERCL_BUILTINS_ARCHIVE_BUNDLE_ENTRY_SIZE +
                     symbols.size() * FIBERCL_BUILTINS_ARCHIVE_SYMBOL_ENTRY_SIZE;
  size_t namesOffset = tablesEnd;
  size_t offset = (namesOffset + names.size() + 3) & ~size_t(3);

  std::string out(FIBERCL_BUILTINS_ARCHIVE_MAGIC, FIBERCL_BUILTINS_ARCHIVE_MAGIC_SIZE);
  put32(out, uint32_t(bitcode.size()));
  put32(out, uint32_t(symbols.size()));
  for (const std::string &b : bitcode) {
    put32(out, uint32_t(offset));
    put32(out, uint32_t(b.size()));
    offset = (offset + b.size() + 3) & ~size_t(3);
  }
  size_t nameOffset = namesOffset;
  for (const auto &[symbol, bundle] : symbols) {
    put32(out, uint32_t(nameOffset));
    put32(out, uint32_t(symbol.size()));
    put32(out, bundle);
    nameOffset += symbol.size();
  }
  out += names;
  for (const std::string &b : bitcode) {
    out.resize((out.size() + 3) & ~size_t(3), '\0');
    out += b;
  }
  if (out.size() > UINT32_MAX)
    fail("the archive is larger than 4 GiB");

  std::ofstream file(argv[2], std::ios::binary);
  file.write(out.data(), std::streamsize(out.size()));
  if (!file)
    fail(std::string("cannot write ") + argv[2]);
  std::printf("builtins archive: %zu bundles, %zu symbols, %zu bytes\n", bitcode.size(),
              symbols.size(), out.size());
  return 0;
}
