// GEOS through its reentrant C API only: one GEOSContextHandle_t per thread.
#ifndef SCOUT_CGEOS_SHIM_H
#define SCOUT_CGEOS_SHIM_H
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#endif
