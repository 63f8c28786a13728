// The module is its header (`include/CIntrinsics.h`); a C target needs one source file.
#include "CIntrinsics.h"
