#ifndef SCOUT_CPREFETCH_H
#define SCOUT_CPREFETCH_H

/// Asks the CPU to bring the cache line holding `address` closer, without waiting for it
/// (x86 `prefetcht0`): a load the walk will make soon, started now so that several misses
/// overlap. Never faults, whatever the address.
static inline __attribute__((always_inline)) void scout_prefetch(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

#endif
