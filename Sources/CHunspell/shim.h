// Hunspell's C API (libhunspell-dev): Polish base forms through Hunspell_stem.
#ifndef SCOUT_CHUNSPELL_SHIM_H
#define SCOUT_CHUNSPELL_SHIM_H
#include <hunspell/hunspell.h>
#endif
