/* convert_half<n>[_<rm>] from every source type (see fcl_conversions.h). */
#include "fcl_conversions.h"

FCL_CONVERT_TO(half)
