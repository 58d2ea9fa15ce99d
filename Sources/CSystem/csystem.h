// System calls the Swift Glibc module does not export (they need _GNU_SOURCE). Wrappers only.
#ifndef TESSERA_CSYSTEM_H
#define TESSERA_CSYSTEM_H

#ifdef __linux__
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <errno.h>

/// Reserves `length` bytes at `offset` without changing the file size (FALLOC_FL_KEEP_SIZE).
/// Returns 0, or the errno value.
static inline int tessera_reserve_keep_size(int fd, long long offset, long long length) {
    int result;
    do { result = fallocate(fd, FALLOC_FL_KEEP_SIZE, (off_t)offset, (off_t)length); } while (result != 0 && errno == EINTR);
    return result == 0 ? 0 : errno;
}
#else
static inline int tessera_reserve_keep_size(int fd, long long offset, long long length) {
    (void)fd; (void)offset; (void)length;
    return 95; /* EOPNOTSUPP */
}
#endif

#endif
