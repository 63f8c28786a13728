#ifndef SCOUT_BENCH_CGEOS_H
#define SCOUT_BENCH_CGEOS_H
#define GEOS_USE_ONLY_R_API
#include <geos_c.h>
#endif
