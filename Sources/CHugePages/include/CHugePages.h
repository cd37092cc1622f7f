// What the engine asks of the kernel for its own large arrays: one madvise, which Swift's standard library lacks.
#ifndef CHUGEPAGES_H
#define CHUGEPAGES_H

#include <stddef.h>

/// Asks the kernel to back the whole 2 MiB pages inside `length` bytes at `start` with transparent huge pages, so
/// that filling them faults once per 2 MiB rather than once per 4 KiB. Does nothing where the system has no such
/// advice or the range holds no whole huge page; the memory stays valid and its contents unchanged either way.
void chugepages_advise(void *start, size_t length);

#endif
