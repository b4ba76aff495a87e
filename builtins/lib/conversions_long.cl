/* convert_long<n>[_sat][_<rm>] from every source type (see fcl_conversions.h). */
#include "fcl_conversions.h"

FCL_CONVERT_TO(long)
