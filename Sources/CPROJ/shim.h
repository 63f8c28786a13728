// PROJ's transformation API and Karney's geodesic routines (geodesic.h ships in libproj-dev).
#ifndef SCOUT_CPROJ_SHIM_H
#define SCOUT_CPROJ_SHIM_H
#include <proj.h>
#include <geodesic.h>
#endif
