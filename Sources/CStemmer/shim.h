// Snowball's C library (libstemmer-dev): English stems through sb_stemmer_stem.
#ifndef SCOUT_CSTEMMER_SHIM_H
#define SCOUT_CSTEMMER_SHIM_H
#include <libstemmer.h>
#endif
