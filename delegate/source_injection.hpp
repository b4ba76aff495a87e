// The primitives library on delegated devices: `#include <fibercl/primitives.h>` is
// replaced by the header's text (FiberCL serves it from memory; the vendor's compiler
// has no such file), followed by a #line directive so the program's own line numbers
// -- in the vendor's build log too -- stay what the author wrote.
#pragma once

#include <string>

namespace fibercl::delegate {

std::string injectFiberclHeaders(const std::string &source);

} // namespace fibercl::delegate
