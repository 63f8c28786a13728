// The module is its header (`include/CPrefetch.h`); a C target needs one source file.
#include "CPrefetch.h"
