// libFuzzer's driver, callable from a program's own main (libclang_rt.fuzzer, LLVM >= 11).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
