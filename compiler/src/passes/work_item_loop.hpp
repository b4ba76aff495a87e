// Pieces every work-group function is built from (work_group_function.cpp,
// region_driver.cpp): the kernel's arguments loaded from the runtime's `args` array,
// fields of the group's ctx, and the loop nest over the group's work-items.
#pragma once

#include <llvm/ADT/STLFunctionalExtras.h>
#include <llvm/IR/IRBuilder.h>

#include <cstddef>
#include <vector>

namespace fibercl::compiler {

// Loads the i64 field at `offset` of the group's fcl_group_ctx.
llvm::Value *loadCtxField(llvm::IRBuilder<> &b, llvm::Value *ctx, size_t offset, const char *name);

// Loads the kernel's arguments (the body's parameters but the last four) from the
// `args` array (layout in kernel_abi.h).
std::vector<llvm::Value *> loadArguments(llvm::IRBuilder<> &b, llvm::Function &body,
                                         llvm::Value *args, llvm::Value *ctx);

// The group's size in each dimension (i32), loaded from ctx->local_size.
void loadLocalSize(llvm::IRBuilder<> &b, llvm::Value *ctx, llvm::Value *size[3]);

// Emits, at b's insertion point, do-while loops over z, y, x below `size` (every
// dimension of a work-group has at least one work-item), calling
// `item(b, x, y, z, index)` in the innermost one (index: the linear local id, i64, x
// fastest). Leaves `b` at the end of the nest.
void emitWorkItemLoop(llvm::IRBuilder<> &b, llvm::Value *const size[3],
                      llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *x, llvm::Value *y,
                                              llvm::Value *z, llvm::Value *index)>
                          item);

// The same with values carried from work-item to work-item (reductions): `carried`
// starts as the initial values; `item` replaces them with the next ones. Returns their
// values after the last work-item.
std::vector<llvm::Value *> emitWorkItemLoop(
    llvm::IRBuilder<> &b, llvm::Value *const size[3], std::vector<llvm::Value *> carried,
    llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *x, llvm::Value *y, llvm::Value *z,
                            llvm::Value *index, std::vector<llvm::Value *> &carried)>
        item);

} // namespace fibercl::compiler
