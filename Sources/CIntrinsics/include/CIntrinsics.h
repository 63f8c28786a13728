#ifndef SCOUT_CINTRINSICS_H
#define SCOUT_CINTRINSICS_H

/// Asks the CPU to bring the cache line holding `address` closer, without waiting for it
/// (x86 `prefetcht0`): a load the walk will make soon, started now so that several misses
/// overlap. Never faults, whatever the address.
static inline __attribute__((always_inline)) void scout_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/// `sin(x)` and `cos(x)` from one call to the C library's `sincos` (a GNU extension Swift's
/// Glibc module does not export): one argument reduction instead of two, and the same
/// values `sin` and `cos` give.
static inline __attribute__((always_inline)) void scout_sincos(double x, double *s, double *c) {
    __builtin_sincos(x, s, c);
}

#endif
