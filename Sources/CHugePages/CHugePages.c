#include "CHugePages.h"

#include <stdint.h>
#include <sys/mman.h>

/// The transparent huge page size of x86_64 and of arm64 with 4 KiB pages. A range advised on another size is still
/// valid: the kernel then backs whatever huge pages of its own size fit inside it.
static const uintptr_t huge_page = (uintptr_t)2 << 20;

void chugepages_advise(void *start, size_t length) {
#ifdef MADV_HUGEPAGE
    uintptr_t first = ((uintptr_t)start + huge_page - 1) & ~(huge_page - 1);
    uintptr_t end = ((uintptr_t)start + length) & ~(huge_page - 1);
    if (end > first) (void)madvise((void *)first, end - first, MADV_HUGEPAGE);
#else
    (void)start;
    (void)length;
#endif
}
